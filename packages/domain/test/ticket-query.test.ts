import { expect } from 'chai';
import fc from 'fast-check';
import {
  deepestPage,
  lastPage,
  pageBounds,
  pageTooDeep,
  matchesTicket,
  pageOffset,
  searchTerms,
  ticketFilter,
  ticketOrder,
  ticketRelations,
  ticketWords,
  type Ticket,
  type TicketFilter,
  type TicketQuery,
  type QueueConditions,
  type QueueQuery,
  allLiveTickets,
  noQueueConditions,
  noQueueQuery,
} from '../src/index.js';
import { aTicket, DAY, T0, userId } from '../test-support/mothers.js';
import type { GroupId } from '../src/ids.js';

/** A ticket query: every state, no words, the default order, first page, with these parts. */
const query = (spec: Partial<TicketQuery> = {}): TicketQuery => ({
  states: null,
  recentlyClosed: false,
  terms: [],
  sort: ticketOrder([], spec.recentlyClosed ?? false),
  embed: [],
  queue: noQueueQuery,
  custom: [],
  customKeys: [],
  page: 1,
  perPage: 30,
  ...spec,
});

const matches = (filter: TicketFilter, t: Ticket): boolean => matchesTicket(filter, t, new Set(ticketWords(t)));
const NOW = T0 + 30 * DAY;

describe('ticket query', () => {
  it("search terms are the tokenizer's folded words, each once", () => {
    expect(searchTerms('Printer  FIRE')).to.deep.equal(['printer', 'fire']);
    expect(searchTerms('Café STRASSE café')).to.deep.equal(['cafe', 'strasse']);
    expect(searchTerms('foo-bar')).to.deep.equal(['foo', 'bar']);
    expect(searchTerms('')).to.deep.equal([]);
  });

  it('computes the offset of a page and the last page (at least 1)', () => {
    expect(pageOffset({ page: 1, perPage: 30 })).to.equal(0);
    expect(pageOffset({ page: 3, perPage: 30 })).to.equal(60);
    expect(lastPage(0, 30)).to.equal(1);
    expect(lastPage(30, 30)).to.equal(1);
    expect(lastPage(31, 30)).to.equal(2);
  });

  it('refuses a page that starts past the first pageBounds.maxOffset (10000) items, naming the deepest page for its size', () => {
    expect(pageBounds.maxOffset).to.equal(10_000);
    for (const [perPage, deepest] of [
      [1, 10_000],
      [30, 334],
      [100, 100],
      [7, 1429],
    ] as const) {
      expect(deepestPage(perPage)).to.equal(deepest);
      expect(pageTooDeep({ page: deepest, perPage }), `page ${deepest} of ${perPage}`).to.equal(null);
      expect(pageTooDeep({ page: deepest + 1, perPage })).to.deep.equal({
        _tag: 'PageTooDeep',
        maxOffset: 10_000,
        deepestPage: deepest,
      });
    }
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 100 }), (page, perPage) => {
        expect(pageTooDeep({ page, perPage }) === null).to.equal(pageOffset({ page, perPage }) < 10_000);
      }),
    );
  });

  describe('ticketFilter', () => {
    it('passes states and terms through and sees every customer for staff', () => {
      expect(
        ticketFilter(query({ states: ['open', 'pending'], terms: searchTerms('Printer') }), null, NOW),
      ).to.deep.equal({
        ...noQueueConditions,
        states: ['open', 'pending'],
        customerId: null,
        words: ['printer'],
        closedSince: null,
        custom: [],
        searchFields: [],
      });
    });

    it('limits a customer to their own tickets', () => {
      expect(ticketFilter(query(), userId(7), NOW).customerId).to.equal(7);
    });

    it('recently_closed: closed tickets whose closed_at is within the last 7 days', () => {
      const f = ticketFilter(query({ recentlyClosed: true }), null, NOW);
      expect(f.states).to.deep.equal(['closed']);
      expect(f.closedSince).to.equal(NOW - 7 * 24 * 60 * 60 * 1000);
    });

    it('recently_closed intersects with an explicit state list', () => {
      expect(ticketFilter(query({ recentlyClosed: true, states: ['open', 'closed'] }), null, NOW).states).to.deep.equal(
        ['closed'],
      );
      const none = ticketFilter(query({ recentlyClosed: true, states: ['open'] }), null, NOW);
      expect(none.states).to.deep.equal([]);
      expect(matches(none, aTicket({ state: 'closed', closedAt: NOW - 1 }))).to.equal(false);
      expect(matches(none, aTicket({ state: 'open' }))).to.equal(false);
    });
  });

  describe('queue filters (contract §5)', () => {
    const queue = (spec: Partial<QueueQuery>): TicketQuery => query({ queue: { ...noQueueQuery, ...spec } });

    it('assigned_user_id=me names the caller, whoever calls; with ids and none it is one OR list', () => {
      const f = ticketFilter(
        queue({ assignees: { ids: [userId(3), userId(9)], me: true, none: true } }),
        null,
        NOW,
        userId(9),
      );
      expect(f.assignees).to.deep.equal({ ids: [3, 9], none: true });
      expect(matches(f, aTicket({ assignedUserId: 9 }))).to.equal(true);
      expect(matches(f, aTicket({ assignedUserId: null }))).to.equal(true);
      expect(matches(f, aTicket({ assignedUserId: 4 }))).to.equal(false);
      expect(() => ticketFilter(queue({ assignees: { ids: [], me: true, none: false } }), null, NOW, null)).to.throw(
        /caller/,
      );
    });

    it("a customer_id list only narrows a customer's own list: no condition when it names them, nothing when not", () => {
      const mine = ticketFilter(queue({ customerIds: [userId(7), userId(8)] }), userId(7), NOW);
      expect([mine.customerId, mine.customerIds]).to.deep.equal([7, null]);
      const others = ticketFilter(queue({ customerIds: [userId(8)] }), userId(7), NOW);
      expect(others.customerIds).to.deep.equal([]);
      expect(matches(others, aTicket({ customerId: 7 }))).to.equal(false);
      expect(ticketFilter(queue({ customerIds: [userId(8), userId(8)] }), null, NOW).customerIds).to.deep.equal([8]);
    });

    it('ANDs across conditions, ORs within a list, and needs every listed tag', () => {
      const c = (spec: Partial<QueueConditions>): TicketFilter => ({ ...allLiveTickets, ...spec });
      const t = aTicket({ priority: 'high', groupId: 2, tags: ['vip', 'billing'], updatedAt: T0 + 5 });
      expect(matches(c({ priorities: ['urgent', 'high'] }), t)).to.equal(true);
      expect(matches(c({ priorities: [] }), t)).to.equal(false);
      expect(matches(c({ groups: { ids: [2 as GroupId], none: false } }), t)).to.equal(true);
      expect(matches(c({ groups: { ids: [], none: true } }), t)).to.equal(false);
      expect(matches(c({ tags: ['billing', 'vip'] }), t)).to.equal(true);
      expect(matches(c({ tags: ['vip', 'bug'] }), t)).to.equal(false);
      expect(matches(c({ tags: ['VIP'] }), t)).to.equal(false);
      expect(matches(c({ updatedSince: T0 + 5 }), t)).to.equal(true);
      expect(matches(c({ updatedSince: T0 + 6 }), t)).to.equal(false);
      expect(
        matches(c({ priorities: ['high'], tags: ['vip'], groups: { ids: [3 as GroupId], none: false } }), t),
      ).to.equal(false);
      expect(matches(c({ customerIds: [] }), t)).to.equal(false);
      expect(matches(c({ assignees: { ids: [], none: false } }), t)).to.equal(false);
    });
  });

  describe('matchesTicket', () => {
    const everything: TicketFilter = {
      ...noQueueConditions,
      states: null,
      customerId: null,
      words: [],
      closedSince: null,
      custom: [],
      searchFields: [],
    };

    it('matches any live ticket with an empty filter', () => {
      expect(matches(everything, aTicket())).to.equal(true);
    });

    it('never matches a deleted ticket', () => {
      expect(matches(everything, aTicket({ deletedAt: T0 + 1 }))).to.equal(false);
    });

    it('matches only the listed states; an empty list matches nothing', () => {
      const openOnly = { ...everything, states: ['open' as const] };
      expect(matches(openOnly, aTicket({ state: 'open' }))).to.equal(true);
      expect(matches(openOnly, aTicket({ state: 'pending' }))).to.equal(false);
      expect(matches({ ...everything, states: [] }, aTicket())).to.equal(false);
    });

    it("matches only the customer's own tickets", () => {
      const mine = { ...everything, customerId: userId(2) };
      expect(matches(mine, aTicket({ customerId: 2 }))).to.equal(true);
      expect(matches(mine, aTicket({ customerId: 3 }))).to.equal(false);
    });

    it('matches closed_at at or after the bound, never a ticket without closed_at', () => {
      const since = { ...everything, closedSince: NOW - 7 * DAY };
      expect(matches(since, aTicket({ state: 'closed', closedAt: NOW - 7 * DAY }))).to.equal(true);
      expect(matches(since, aTicket({ state: 'closed', closedAt: NOW - 7 * DAY - 1 }))).to.equal(false);
      expect(matches(since, aTicket({ state: 'open' }))).to.equal(false);
    });

    it('requires every word, from subject, summary or customer name', () => {
      const t = aTicket({ subject: 'Printer on fire', summary: 'Smoke in room 101', customerName: 'Zoë Ångström' });
      const words = (q: string): TicketFilter => ticketFilter(query({ terms: searchTerms(q) }), null, NOW);
      expect(matches(words('PRINTER smoke'), t)).to.equal(true);
      expect(matches(words('zoe angstrom 101'), t)).to.equal(true);
      expect(matches(words('printer water'), t)).to.equal(false);
      expect(matches(words('print'), t)).to.equal(false); // whole words only
    });

    it('a recently_closed query finds exactly the tickets closed within the last 7 days', () => {
      const f = ticketFilter(query({ recentlyClosed: true }), null, NOW);
      expect(matches(f, aTicket({ state: 'closed', closedAt: NOW - 6 * DAY }))).to.equal(true);
      expect(matches(f, aTicket({ state: 'closed', closedAt: NOW - 8 * DAY }))).to.equal(false);
      expect(matches(f, aTicket({ state: 'open' }))).to.equal(false);
      expect(matches(f, aTicket({ state: 'closed', closedAt: NOW - DAY, deletedAt: NOW }))).to.equal(false);
    });
  });
});

describe('ticket query rules: edges', () => {
  it('leave a ticket never closed out of a closed-since bound', () => {
    const filter: TicketFilter = {
      ...noQueueConditions,
      states: null,
      customerId: null,
      words: [],
      closedSince: T0,
      custom: [],
      searchFields: [],
    };
    expect(matchesTicket(filter, aTicket({ state: 'open', closedAt: null }), new Set())).to.equal(false);
    expect(matchesTicket(filter, aTicket({ state: 'closed', closedAt: T0 }), new Set())).to.equal(true);
  });

  it('embed a ticket’s customer, assigned user and group', () => {
    expect(ticketRelations).to.deep.equal(['customer', 'assignedUser', 'group']);
  });
});
