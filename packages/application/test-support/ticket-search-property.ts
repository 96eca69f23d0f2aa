import { renameCustomer, unassignTicket, ungroupTicket, type Ticket } from '@support/domain';
import { expect } from 'chai';
import fc from 'fast-check';
import type { Store, TicketRepository } from '../src/index.js';
import { carryOut } from './follow-up-carrier.js';
import { groupId, T0, userId } from './mothers.js';
import { expectedSearch } from './reference-search.js';
import { contentToTicket, filterOf, queryShape, ticketContent } from './ticket-arbitraries.js';

/** A write between loading the tickets and searching them. */
const anEdit = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), target: fc.nat(), content: ticketContent }),
  fc.record({
    kind: fc.constant('rename' as const),
    customer: fc.integer({ min: 0, max: 2 }),
    name: fc.constantFrom('Zoë Renamed', 'Ada Lovelace'),
  }),
  // A user or group deleted: its tickets leave that queue (and join "none").
  fc.record({ kind: fc.constant('unassign' as const), user: fc.constantFrom(501, 502) }),
  fc.record({ kind: fc.constant('ungroup' as const), group: fc.constantFrom(1, 2) }),
);
type Edit = typeof anEdit extends fc.Arbitrary<infer E> ? E : never;

/** A run of the property: its own ids and customers, so runs on one store never meet. */
class Run {
  readonly model = new Map<number, Ticket>();
  private readonly repo: TicketRepository;
  constructor(
    private readonly store: Store,
    readonly idBase: number,
    readonly customerBase: number,
  ) {
    this.repo = store.tickets;
  }

  async insert(t: Ticket): Promise<void> {
    await this.repo.insert(t);
    this.model.set(t.id, t);
  }

  async apply(edit: Edit): Promise<void> {
    const now = T0 + 3_600_000;
    if (edit.kind === 'unassign') {
      await carryOut(this.store, [{ op: 'unassignUser', userId: userId(edit.user), now }], now);
      for (const t of this.model.values())
        if (t.assignedUserId === edit.user) this.model.set(t.id, unassignTicket(t, now));
      return;
    }
    if (edit.kind === 'ungroup') {
      await carryOut(this.store, [{ op: 'clearGroup', groupId: groupId(edit.group), now }], now);
      for (const t of this.model.values()) if (t.groupId === edit.group) this.model.set(t.id, ungroupTicket(t, now));
      return;
    }
    if (edit.kind === 'rename') {
      const customerId = userId(this.customerBase + edit.customer);
      await carryOut(this.store, [{ op: 'renameCustomer', customerId, name: edit.name, version: 1, now }], now);
      for (const t of this.model.values())
        if (t.customerId === customerId && t.customerName !== edit.name)
          this.model.set(t.id, renameCustomer(t, edit.name, now));
      return;
    }
    const all = [...this.model.values()];
    const old = all[edit.target % Math.max(1, all.length)];
    if (old === undefined) return;
    const next = contentToTicket(edit.content, old.id, this.customerBase, old.version + 1);
    expect(await this.repo.update(next, old.version)).to.equal(true);
    this.model.set(next.id, next);
  }

  /** Deletes what is still live, so later runs on the same store search only their own tickets. */
  async retire(): Promise<void> {
    for (const t of this.model.values()) {
      if (t.deletedAt === null) await this.repo.update({ ...t, deletedAt: T0, version: t.version + 1 }, t.version);
    }
  }
}

/** The search property of the TicketRepository contract. */
export const ticketSearchProperties = (store: () => Store): void => {
  const tickets = () => store().tickets;
  describe('search property', () => {
    it('equals the reference filter + sort + slice for random tickets, writes and query shapes', async () => {
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(ticketContent, { maxLength: 24 }),
          fc.array(anEdit, { maxLength: 6 }),
          fc.array(queryShape, { minLength: 1, maxLength: 5 }),
          async (contents, edits, queries) => {
            runs += 1;
            const run = new Run(store(), runs * 100, runs * 10);
            try {
              for (const [i, c] of contents.entries())
                await run.insert(contentToTicket(c, run.idBase + i, run.customerBase));
              for (const edit of edits) await run.apply(edit);
              for (const t of run.model.values()) expect(await tickets().findById(t.id)).to.deep.equal(t);
              for (const q of queries) {
                const filter = filterOf(q, run.customerBase);
                const expected = expectedSearch([...run.model.values()], filter, q.sort, q.offset, q.limit);
                expect(await tickets().search(filter, q.sort, q.offset, q.limit)).to.deep.equal(expected);
              }
            } finally {
              await run.retire();
            }
          },
        ),
        { numRuns: 60 },
      );
    });
  });
};
