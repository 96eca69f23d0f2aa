import { aFilter, aTicket, expectedSearch, minutes, T0 } from '@support/application/testing';
import { completeSort, priorities, sortFields, ticketStates, type Ticket, type TicketFilter } from '@support/domain';
import { expect } from 'chai';
import fc from 'fast-check';
import { MemoryEventLog } from '../src/event-log.js';
import { createMemoryEngine, type ChangeSink, type RecordChange } from '../src/index.js';

// A search or list answers while commits are pending only when its answer is the same whatever
// of them reach the disk: random tickets, random pending writes (edits, deletions, new
// tickets) and random queries, with the commits released one at a time; every answer equals the
// domain's reference answer (matchesTicket, compareTickets) over memory, and over what the disk
// held at the moment it was given. So an answer never shows a write a crash could undo, and
// searches the writes cannot change need not wait (some answer before any commit completes).

/** A durable store whose commits complete only when released, in order. */
class HeldSink implements ChangeSink {
  private held: (() => void)[] = [];
  holding = false;
  commit(_changes: readonly RecordChange[]): Promise<void> {
    return new Promise((resolve) => {
      if (this.holding) this.held.push(resolve);
      else setImmediate(resolve);
    });
  }
  /** Completes the oldest held commit; false when none is held. */
  releaseOne(): boolean {
    const next = this.held.shift();
    next?.();
    return next !== undefined;
  }
}

const words = ['printer', 'invoice', 'refund', 'login'] as const;
const instant = fc.integer({ min: 0, max: 5 }).map((n) => T0 + minutes(n));
const content = fc.record({
  subject: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 2 }).map((ws) => ws.join(' ')),
  state: fc.constantFrom(...ticketStates),
  priority: fc.constantFrom(...priorities),
  createdAt: instant,
  updatedAt: instant,
  deleted: fc.boolean(),
});
type Content = typeof content extends fc.Arbitrary<infer C> ? C : never;
const ticketOf = (c: Content, id: number, version: number): Ticket =>
  aTicket({
    id,
    version,
    subject: c.subject,
    summary: '',
    state: c.state,
    priority: c.priority,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    deletedAt: c.deleted ? c.updatedAt : null,
  });

const aQuery = fc.record({
  states: fc.option(fc.subarray([...ticketStates], { minLength: 1 }), { freq: 2 }),
  words: fc.subarray([...words], { maxLength: 1 }),
  priorities: fc.option(fc.subarray([...priorities], { minLength: 1 }), { freq: 3 }),
  sort: fc
    .uniqueArray(fc.record({ field: fc.constantFrom(...sortFields), direction: fc.constantFrom('asc', 'desc') }), {
      selector: (r) => r.field,
      maxLength: 2,
    })
    .map((rules) => completeSort(rules as never)),
  offset: fc.nat(6),
  limit: fc.integer({ min: 1, max: 4 }),
});
type Query = typeof aQuery extends fc.Arbitrary<infer Q> ? Q : never;
const filterOf = (q: Query): TicketFilter => aFilter({ states: q.states, words: q.words, priorities: q.priorities });

const answerOf = (tickets: ReadonlyMap<number, Ticket>, q: Query) =>
  expectedSearch([...tickets.values()], filterOf(q), q.sort, q.offset, q.limit);
/** What an answer shows: every field of each ticket of the page, and the total. */
const shown = (p: { readonly items: readonly Ticket[]; readonly total: number }) => ({
  items: p.items.map((t) => ({ ...t })),
  total: p.total,
});
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Memory engine with a durable sink: searches during pending commits', () => {
  it('answer, while commits are pending, only what memory and the disk both say', async () => {
    let answeredEarly = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(content, { minLength: 1, maxLength: 10 }),
        fc.array(fc.record({ target: fc.nat(12), content }), { minLength: 1, maxLength: 4 }),
        fc.array(aQuery, { minLength: 1, maxLength: 4 }),
        async (initial, writes, queries) => {
          const sink = new HeldSink();
          const { store } = createMemoryEngine({}, { sink, feed: () => new MemoryEventLog(), read: () => undefined });
          const memory = new Map<number, Ticket>();
          for (const [i, c] of initial.entries()) {
            const t = ticketOf(c, i + 1, 1);
            await store.tickets.insert(t);
            memory.set(t.id, t);
          }
          // Pending: each write's commit is held; `states[k]` is the disk after k of them.
          sink.holding = true;
          const states: Map<number, Ticket>[] = [new Map(memory)];
          const written: Promise<unknown>[] = [];
          for (const w of writes) {
            const old = memory.get(w.target + 1);
            const next = ticketOf(w.content, w.target + 1, (old?.version ?? 0) + 1);
            written.push(old === undefined ? store.tickets.insert(next) : store.tickets.update(next, old.version));
            memory.set(next.id, next);
            states.push(new Map(memory));
          }
          let durable = 0;
          const seen: { q: Query; at: number; answer: ReturnType<typeof shown> }[] = [];
          const asked = queries.map((q) =>
            store.tickets.search(filterOf(q), q.sort, q.offset, q.limit).then((p) => {
              seen.push({ q, at: durable, answer: shown(p) });
            }),
          );
          await turn();
          answeredEarly += seen.length;
          while (sink.releaseOne()) {
            durable += 1;
            await turn();
          }
          await Promise.all([...written, ...asked]);
          for (const s of seen) {
            expect(s.answer, 'the answer over memory').to.deep.equal(shown(answerOf(memory, s.q)));
            expect(s.answer, `the answer over the disk after ${s.at} commits`).to.deep.equal(
              shown(answerOf(states[s.at] as Map<number, Ticket>, s.q)),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
    // Not vacuous: some searches answered before any pending commit completed (none did before).
    expect(answeredEarly).to.be.greaterThan(0);
  });
});
