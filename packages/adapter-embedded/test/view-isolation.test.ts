import { aFilter, aTicket, minutes, sortOf, T0 } from '@support/application/testing';
import type { Page } from '@support/application';
import type { CompleteSort, Ticket, TicketFilter } from '@support/domain';
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { EmbeddedStore } from '../src/index.js';
import { settlesWithin } from './settles.js';
import { startedStore, tempDataDir } from './temp-store.js';

// Searches and lists never wait for a write that cannot change their answer, and never show
// one that is not durable yet: issued while a ticket's commit is in flight (made slow on
// purpose through the sink), a search or list whose answer is the same with or without that
// write (by the domain's reference filter and order) answers before the commit completes, with
// the durable state; one that the write changes (a ticket moved out of its state filter, a
// search word added, a new place in its order, a ticket on its page, a deletion, a new ticket)
// answers only once the commit is durable, and shows the write. Seen failing on the old code:
// every search and list waited for every pending commit of the tickets table.

const seed: readonly Ticket[] = [
  aTicket({ id: 1, subject: 'Printer jam', createdAt: T0, updatedAt: T0 + minutes(1) }),
  aTicket({ id: 2, subject: 'Invoice copy', createdAt: T0 + minutes(1), updatedAt: T0 + minutes(2) }),
  aTicket({
    id: 3,
    subject: 'Refund please',
    state: 'pending',
    createdAt: T0 + minutes(2),
    updatedAt: T0 + minutes(3),
  }),
  aTicket({ id: 4, subject: 'Login broken', state: 'closed', createdAt: T0 + minutes(3), updatedAt: T0 + minutes(4) }),
];

interface Query {
  readonly filter: TicketFilter;
  readonly sort: CompleteSort;
  readonly offset: number;
  readonly limit: number;
}
const query = (filter: Partial<TicketFilter>, sort: CompleteSort, offset = 0, limit = 10): Query => ({
  filter: aFilter(filter),
  sort,
  offset,
  limit,
});
const shown = (p: Page<Ticket>) => ({ ids: p.items.map((t) => t.id as number), total: p.total });

describe('Embedded store: searches and lists during a slow commit', function () {
  this.timeout(30_000);
  let dir: string;
  let hold: Promise<void> | null = null;
  let release: () => void = () => undefined;
  let store: EmbeddedStore;
  beforeEach(async () => {
    dir = tempDataDir();
    store = await startedStore(dir, { slowCommit: () => hold ?? Promise.resolve() });
    for (const t of seed) await store.tickets.insert(t);
    hold = new Promise<void>((resolve) => {
      release = resolve;
    });
  });
  afterEach(async () => {
    release();
    hold = null;
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Ticket `id` changed by `change`, as a use case writes it (next version, updated later). */
  const edit = async (id: number, change: Partial<Ticket>): Promise<boolean> => {
    const t = await store.tickets.findById(id as never);
    if (t === null) throw new Error(`no ticket ${id}`);
    return store.tickets.update({ ...t, ...change, version: t.version + 1, updatedAt: T0 + minutes(10) }, t.version);
  };
  const search = (q: Query) => store.tickets.search(q.filter, q.sort, q.offset, q.limit);

  /** Starts `write`, then the queries while its commit is in flight: which answered before it completed, and what each showed. */
  const during = async (write: () => Promise<unknown>, queries: readonly Query[]) => {
    const written = write();
    await new Promise((r) => setTimeout(r, 20));
    const reads = queries.map(search);
    const early = await Promise.all(reads.map((r) => settlesWithin(r, 400)));
    expect(await settlesWithin(written, 20), 'the write is still in flight').to.equal(false);
    release();
    await written;
    return { early, shown: (await Promise.all(reads)).map(shown) };
  };

  it('a search and lists the write cannot change answer before its commit completes, with the durable state', async () => {
    const queries = [
      query({ words: ['printer'] }, sortOf('id')), // ticket 3 never holds the word
      query({ states: ['open'] }, sortOf('id')), // ticket 3 is pending before and after
      query({}, sortOf('id'), 0, 2), // ticket 3 comes after the page either way
      query({}, sortOf('-createdAt'), 2, 2), // ticket 3 comes before the page either way
    ];
    const r = await during(() => edit(3, { priority: 'high' }), queries);
    expect(r.early).to.deep.equal([true, true, true, true]);
    expect(r.shown).to.deep.equal([
      { ids: [1], total: 1 },
      { ids: [1, 2], total: 2 },
      { ids: [1, 2], total: 4 },
      { ids: [2, 1], total: 4 },
    ]);
  });

  it('a new ticket a list or search does not match does not hold it up', async () => {
    const queries = [query({ states: ['open'] }, sortOf('id')), query({ words: ['invoice'] }, sortOf('-updatedAt'))];
    const r = await during(
      () => store.tickets.insert(aTicket({ id: 5, subject: 'Export failed', state: 'closed' })),
      queries,
    );
    expect(r.early).to.deep.equal([true, true]);
    expect(r.shown).to.deep.equal([
      { ids: [1, 2], total: 2 },
      { ids: [2], total: 1 },
    ]);
  });

  it('a list whose state filter the write moves a ticket out of waits, and shows it gone', async () => {
    // Ticket 2 is not on the page, but the total changes.
    const r = await during(
      () => edit(2, { state: 'closed', closedAt: T0 + minutes(10) }),
      [query({ states: ['open'] }, sortOf('id'), 0, 1)],
    );
    expect(r.early).to.deep.equal([false]);
    expect(r.shown).to.deep.equal([{ ids: [1], total: 1 }]);
  });

  it('a search for a word the write adds waits, and finds it', async () => {
    const r = await during(() => edit(3, { subject: 'Refund printer' }), [query({ words: ['printer'] }, sortOf('id'))]);
    expect(r.early).to.deep.equal([false]);
    expect(r.shown).to.deep.equal([{ ids: [1, 3], total: 2 }]);
  });

  it('lists sorted by updated_at wait for a write that moves a ticket in their order', async () => {
    const r = await during(
      () => edit(1, { priority: 'high' }),
      [
        query({}, sortOf('updatedAt'), 0, 1), // ticket 1 leaves the page from before it
        query({}, sortOf('-updatedAt'), 0, 1), // ticket 1 comes to the page
        query({}, sortOf('-updatedAt'), 2, 1), // ticket 1 crosses the page
      ],
    );
    expect(r.early).to.deep.equal([false, false, false]);
    expect(r.shown).to.deep.equal([
      { ids: [2], total: 4 },
      { ids: [1], total: 4 },
      { ids: [3], total: 4 },
    ]);
  });

  it('a list waits for a write to a ticket on its page, a deletion and a new ticket it matches', async () => {
    const onPage = await during(() => edit(1, { priority: 'urgent' }), [query({}, sortOf('id'), 0, 2)]);
    expect(onPage.early).to.deep.equal([false]);
    const [page] = await Promise.all([store.tickets.search(aFilter(), sortOf('id'), 0, 2)]);
    expect(page.items[0]?.priority).to.equal('urgent');
    hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const deleted = await during(() => edit(4, { deletedAt: T0 + minutes(10) }), [query({}, sortOf('id'), 0, 1)]);
    expect(deleted.early).to.deep.equal([false]);
    expect(deleted.shown).to.deep.equal([{ ids: [1], total: 3 }]);
    hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const created = await during(
      () => store.tickets.insert(aTicket({ id: 6, subject: 'Printer again' })),
      [query({ words: ['printer'] }, sortOf('id'), 5, 1)],
    );
    expect(created.early).to.deep.equal([false]);
    expect(created.shown).to.deep.equal([{ ids: [], total: 2 }]);
  });
});
