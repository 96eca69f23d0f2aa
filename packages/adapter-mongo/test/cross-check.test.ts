import {
  completeSort,
  compareTickets,
  matchesTicket,
  pageOffset,
  renameCustomer,
  searchTerms,
  ticketFilter,
  ticketOrder,
  ticketWords,
  type CompleteSort,
  type SortRule,
  type Ticket,
  type TicketFilter,
  type TicketQuery,
  type TicketState,
  noQueueConditions,
  noQueueQuery,
} from '@support/domain';
import { expect } from 'chai';
import type { Store } from '@support/application';
import { carryOut } from '@support/application/testing';
import type { TicketDocument } from '../src/documents.js';
import { ticketFilterToMongo } from '../src/ticket-query.js';
import { customers, now } from './support/fixtures.js';
import { engineStore } from './support/mingo-engine.js';
import { rulesOf, sortParams, tickets } from './support/cross-check-shapes.js';

// The semantic cross-check: the adapter's ticket search, run with every query of its plan
// (counts, index walks, tie runs) evaluated by an independent implementation of MongoDB's
// query semantics (mingo for filters, MongoDB's documented sort order for sorts, see
// support/mongo-order.ts, every document through BSON: support/mingo-engine.ts), must
// select the same tickets in the same order as the domain's reference matchesTicket +
// compareTickets (which the memory adapter is proven to equal), for every query shape of
// contract §5, page by page.

/** When the customer is renamed: after some tickets' updatedAt, before others' (both sides of the $max). */
const T_RENAME = now - 30 * 86_400_000;

const wordSets = new WeakMap<Ticket, ReadonlySet<string>>();
const wordsOf = (t: Ticket): ReadonlySet<string> => {
  let words = wordSets.get(t);
  if (words === undefined) wordSets.set(t, (words = new Set(ticketWords(t))));
  return words;
};

const reference = (filter: TicketFilter, sort: readonly SortRule[], all: readonly Ticket[] = tickets): number[] =>
  all
    .filter((t) => matchesTicket(filter, t, wordsOf(t)))
    .sort(compareTickets(sort))
    .map((t) => t.id);

/** The fixture tickets in one engine store (mingo selects, MongoDB's order sorts, every document through BSON). */
const engine = engineStore();

/** What the adapter answers over the engine: its real plan (counts, index walks, tie runs), query by query. */
const viaMongo = async (
  filter: TicketFilter,
  sort: CompleteSort,
  offset: number,
  limit: number,
  store: Store = engine,
) => {
  const page = await store.tickets.search(filter, sort, offset, limit);
  return { ids: page.items.map((t) => t.id), total: page.total };
};

const stateParams = [
  undefined,
  'open',
  'pending',
  'closed',
  'open,pending',
  'pending,closed',
  'closed,open',
  'open,pending,closed',
];
const qParams = [
  undefined,
  'printer',
  'PRINTER cafe',
  'Café',
  'zoe',
  'strasse',
  'naive resume',
  'ss',
  'ärger drucker',
  'nomatch',
];
const pages = [
  { page: '1', per_page: '100' },
  { page: '1', per_page: '5' },
  { page: '2', per_page: '5' },
  { page: '4', per_page: '7' },
  { page: '50', per_page: '10' },
];
const callers = [null, ...customers.map((c) => c.id)];
const aliases = [undefined, 'recently_closed'] as const;

/** The query of a list request with these parameters, made by the domain's rules. */
const queryOf = (
  state: string | undefined,
  q: string | undefined,
  sortParam: string | undefined,
  recentlyClosed: boolean,
  p: (typeof pages)[number],
): TicketQuery => ({
  states: state === undefined ? null : (state.split(',') as TicketState[]),
  recentlyClosed,
  terms: searchTerms(q ?? ''),
  sort: ticketOrder(rulesOf(sortParam), recentlyClosed),
  embed: [],
  queue: noQueueQuery,
  page: Number(p.page),
  custom: [],
  customKeys: [],
  perPage: Number(p.per_page),
});

describe('cross-check: generated MongoDB filters and sorts select and order like the domain reference', () => {
  before(async () => {
    for (const t of tickets) await engine.tickets.insert(t);
  });
  let shapes = 0;
  let nonTrivial = 0;

  for (const sortParam of sortParams) {
    it(`sort=${sortParam ?? '(default)'}: every state list, caller, q and recently_closed, page by page`, async () => {
      for (const alias of aliases)
        for (const state of stateParams)
          for (const q of qParams)
            for (const customerId of callers)
              for (const p of pages) {
                const params = {
                  ...(state === undefined ? {} : { state }),
                  ...(q === undefined ? {} : { q }),
                  ...(sortParam === undefined ? {} : { sort: sortParam }),
                  ...p,
                };
                const query = queryOf(state, q, sortParam, alias !== undefined, p);
                const filter = ticketFilter(query, customerId, now);
                const all = reference(filter, query.sort);
                const offset = pageOffset(query);
                const expected = all.slice(offset, offset + query.perPage);
                const got = await viaMongo(filter, query.sort, offset, query.perPage);
                const where = `${JSON.stringify({ alias, customerId, ...params })}\n filter ${JSON.stringify(ticketFilterToMongo(filter))}`;
                expect(got.total, `total for ${where}`).to.equal(all.length);
                expect(got.ids, `page for ${where}`).to.deep.equal(expected);
                shapes += 1;
                if (expected.length >= 2) nonTrivial += 1;
              }
    });
  }

  it('covered thousands of shapes, most of them with at least two tickets on the page to order', () => {
    expect(shapes).to.equal(
      sortParams.length * aliases.length * stateParams.length * qParams.length * callers.length * pages.length,
    );
    expect(nonTrivial).to.be.above(shapes / 10);
  });

  it('an empty state list selects nothing; no bound, no words select every live ticket', async () => {
    const sort = completeSort([{ field: 'id', direction: 'asc' }]);
    const empty: TicketFilter = { ...noQueueConditions, states: [], customerId: null, words: [], closedSince: null };
    expect(await viaMongo(empty, sort, 0, 100)).to.deep.equal({ ids: [], total: 0 });
    const everything: TicketFilter = {
      ...noQueueConditions,
      states: null,
      customerId: null,
      words: [],
      closedSince: null,
    };
    expect((await viaMongo(everything, sort, 0, 100)).ids)
      .to.deep.equal(reference(everything, sort))
      .and.to.have.length(tickets.filter((t) => t.deletedAt === null).length);
  });

  it('closed_at exactly 7 days ago is inside the window, one millisecond earlier outside; null never is', async () => {
    const filter: TicketFilter = {
      ...noQueueConditions,
      states: null,
      customerId: null,
      words: [],
      closedSince: now - 7 * 86_400_000,
    };
    const sort = completeSort([{ field: 'closedAt', direction: 'desc' }]);
    const got = (await viaMongo(filter, sort, 0, 100)).ids;
    expect(got).to.deep.equal(reference(filter, sort));
    const edge = tickets.filter((t) => t.deletedAt === null && t.closedAt === filter.closedSince);
    const outside = tickets.filter((t) => t.deletedAt === null && t.closedAt === now - 7 * 86_400_000 - 1);
    expect(edge.length).to.be.above(0);
    expect(outside.length).to.be.above(0);
    expect(got).to.include.members(edge.map((t) => t.id));
    expect(got).to.not.include.members(outside.map((t) => t.id));
  });

  it('a limit of 0 reads no page but still counts', async () => {
    const filter: TicketFilter = { ...noQueueConditions, states: null, customerId: null, words: [], closedSince: null };
    expect(await viaMongo(filter, completeSort([]), 0, 0)).to.deep.equal({
      ids: [],
      total: reference(filter, []).length,
    });
  });

  it("after a customer rename (the adapter's pipeline update, run by mingo), search finds the new name and not the old", async () => {
    const renamed = engineStore();
    for (const t of tickets) await renamed.tickets.insert(t);
    const customer = customers[0];
    const rename = { op: 'renameCustomer', customerId: customer.id, name: 'Émile Renamé-Neu', version: 1 } as const;
    await carryOut(renamed, [{ ...rename, now: T_RENAME }], T_RENAME);
    const renamedDocs = renamed.engine.collection('tickets').docs as TicketDocument[];
    const renamedTickets = tickets.map((t) =>
      t.customerId === customer.id ? renameCustomer(t, 'Émile Renamé-Neu', T_RENAME) : t,
    );
    for (const d of renamedDocs) {
      const t = renamedTickets.find((x) => x.id === d._id)!;
      expect(new Set(d.words), `words of ${d._id}`).to.deep.equal(new Set(ticketWords(t)));
      expect(d.version).to.equal(t.version);
      expect(d.customerName).to.equal(t.customerName);
      expect(d.updatedAt.getTime(), `updatedAt of ${d._id}`).to.equal(t.updatedAt);
    }
    const sort = completeSort([{ field: 'id', direction: 'asc' }]);
    for (const words of [['emile'], ['renamé'.normalize('NFKD').replace(/\p{M}/gu, '')], ['zoe'], ['neu', 'printer']]) {
      const filter: TicketFilter = { ...noQueueConditions, states: null, customerId: null, words, closedSince: null };
      expect((await viaMongo(filter, sort, 0, 100, renamed)).ids, words.join(' ')).to.deep.equal(
        reference(filter, sort, renamedTickets),
      );
    }
  });
});
