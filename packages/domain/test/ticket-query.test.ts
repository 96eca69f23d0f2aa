import { expect } from 'chai';
import fc from 'fast-check';
import {
  deepestPage,
  lastPage,
  pageBounds,
  pageTooDeep,
  matchesTicket,
  pageOffset,
  parseTicketQuery,
  ticketFilter,
  ticketWords,
  type DomainError,
  type QueryParams,
  type Ticket,
  type TicketFilter,
  type TicketQuery,
} from '../src/index.js';
import { aTicket, DAY, issuePairs, leftOf, rightOf, T0, userId } from './support/mother.js';

const parse = (params: QueryParams): TicketQuery => rightOf(parseTicketQuery(params));

/** The [parameter, value] pairs of a refused query; fails the test if the query was accepted. */
const issuesOf = (params: QueryParams): Array<[string, string]> => {
  const e: DomainError = leftOf(parseTicketQuery(params));
  if (e._tag !== 'InvalidQuery') throw new Error(`expected InvalidQuery, got ${e._tag}`);
  return issuePairs(e.issues);
};

const matches = (filter: TicketFilter, t: Ticket): boolean => matchesTicket(filter, t, new Set(ticketWords(t)));
const NOW = T0 + 30 * DAY;

describe('ticket query', () => {
  it('without parameters: every state, no terms, -created_at, every field, no embeds, page 1 of 30', () => {
    expect(parse({})).to.deep.equal({
      states: null,
      recentlyClosed: false,
      terms: [],
      sort: [
        { field: 'created_at', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ],
      fields: null,
      embed: {},
      page: 1,
      perPage: 30,
    });
  });

  it('ignores unknown parameters', () => {
    expect(parse({ access_token: 'secret', pretty: 'false', envelope: 'true', colour: 'red' })).to.deep.equal(parse({}));
  });

  describe('state', () => {
    it('takes one state', () => {
      expect(parse({ state: 'open' }).states).to.deep.equal(['open']);
    });

    it('takes a comma list', () => {
      expect(parse({ state: 'open,pending' }).states).to.deep.equal(['open', 'pending']);
      expect(parse({ state: 'closed, open' }).states).to.deep.equal(['closed', 'open']);
    });

    it('takes a repeated parameter (an array value) like a comma list', () => {
      expect(parse({ state: ['open', 'closed'] }).states).to.deep.equal(['open', 'closed']);
      expect(parse({ state: ['open,pending', 'closed'] }).states).to.deep.equal(['open', 'pending', 'closed']);
    });

    it('lists a state named twice once', () => {
      expect(parse({ state: 'open,open' }).states).to.deep.equal(['open']);
    });

    it('refuses an unknown state, naming the parameter and the value', () => {
      expect(issuesOf({ state: 'opened' })).to.deep.equal([['state', 'opened']]);
      expect(issuesOf({ state: 'open,archived' })).to.deep.equal([['state', 'archived']]);
      expect(issuesOf({ state: 'OPEN' })).to.deep.equal([['state', 'OPEN']]);
      expect(issuesOf({ state: 'recently_closed' })).to.deep.equal([['state', 'recently_closed']]);
    });

    it('refuses an empty item', () => {
      expect(issuesOf({ state: 'open,' }).map(([p]) => p)).to.deep.equal(['state']);
      expect(issuesOf({ state: '' }).map(([p]) => p)).to.deep.equal(['state']);
    });
  });

  describe('sort', () => {
    it('reads a comma list, "-" meaning descending, and appends the id tie-breaker', () => {
      expect(parse({ sort: '-priority,created_at' }).sort).to.deep.equal([
        { field: 'priority', direction: 'desc' },
        { field: 'created_at', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ]);
      expect(parse({ sort: 'subject' }).sort).to.deep.equal([
        { field: 'subject', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ]);
    });

    it('accepts every sortable field of the contract', () => {
      for (const field of ['id', 'subject', 'state', 'priority', 'created_at', 'updated_at', 'closed_at']) {
        expect(parse({ sort: `-${field}` }).sort[0]).to.deep.equal({ field, direction: 'desc' });
      }
    });

    it('refuses an unknown field, naming it', () => {
      expect(issuesOf({ sort: 'colour' })).to.deep.equal([['sort', 'colour']]);
      expect(issuesOf({ sort: 'priority,-customer_name' })).to.deep.equal([['sort', '-customer_name']]);
      expect(issuesOf({ sort: '-' })).to.deep.equal([['sort', '-']]);
    });

    it('refuses a field named twice, in either direction', () => {
      expect(issuesOf({ sort: 'priority,-priority' })).to.deep.equal([['sort', '-priority']]);
      expect(issuesOf({ sort: 'created_at,created_at' })).to.deep.equal([['sort', 'created_at']]);
    });

    it('refuses an empty item', () => {
      expect(issuesOf({ sort: 'priority,,subject' }).map(([p]) => p)).to.deep.equal(['sort']);
    });
  });

  describe('q', () => {
    it('splits the terms with the tokenizer and folds them, each once', () => {
      expect(parse({ q: 'Printer  FIRE' }).terms).to.deep.equal(['printer', 'fire']);
      expect(parse({ q: 'Café STRASSE café' }).terms).to.deep.equal(['cafe', 'strasse']);
      expect(parse({ q: 'foo-bar' }).terms).to.deep.equal(['foo', 'bar']);
      expect(parse({ q: '' }).terms).to.deep.equal([]);
    });

    it('q=recently_closed is the saved search: closed recently, newest closing first, no terms', () => {
      const q = parse({ q: 'recently_closed' });
      expect(q.recentlyClosed).to.equal(true);
      expect(q.terms).to.deep.equal([]);
      expect(q.sort).to.deep.equal([
        { field: 'closed_at', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ]);
      expect(parse({ q: ' recently_closed ' }).recentlyClosed).to.equal(true);
    });

    it('the /tickets/recently_closed alias means the same as q=recently_closed', () => {
      expect(rightOf(parseTicketQuery({}, { alias: 'recently_closed' }))).to.deep.equal(parse({ q: 'recently_closed' }));
    });

    it('an explicit sort replaces the saved search default', () => {
      expect(rightOf(parseTicketQuery({ sort: 'priority' }, { alias: 'recently_closed' })).sort).to.deep.equal([
        { field: 'priority', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ]);
    });

    it('recently_closed among other words is an ordinary search', () => {
      const q = parse({ q: 'recently_closed printer' });
      expect(q.recentlyClosed).to.equal(false);
      expect(q.terms).to.deep.equal(['recently', 'closed', 'printer']);
    });

    it('a search is not the saved search', () => {
      expect(parse({ q: 'printer' }).recentlyClosed).to.equal(false);
    });
  });

  describe('fields', () => {
    it('selects top-level fields, customer_name included', () => {
      expect(parse({ fields: 'id,subject,customer_name' }).fields).to.deep.equal(['id', 'subject', 'customer_name']);
    });

    it('lists a field named twice once', () => {
      expect(parse({ fields: 'subject,subject' }).fields).to.deep.equal(['subject']);
    });

    it('refuses unknown fields, naming each', () => {
      expect(issuesOf({ fields: 'subject,colour,password' })).to.deep.equal([
        ['fields', 'colour'],
        ['fields', 'password'],
      ]);
      expect(issuesOf({ fields: 'customer.name' })).to.deep.equal([['fields', 'customer.name']]);
    });
  });

  describe('embed', () => {
    it('expands customer, assigned_user and group', () => {
      expect(parse({ embed: 'customer,assigned_user,group' }).embed).to.deep.equal({
        customer: 'all',
        assigned_user: 'all',
        group: 'all',
      });
    });

    it('takes dotted sub-fields (customer.name: the link object plus name)', () => {
      expect(parse({ embed: 'customer.name,assigned_user' }).embed).to.deep.equal({ customer: ['name'], assigned_user: 'all' });
      expect(parse({ embed: 'customer.name,customer.email,customer.name' }).embed).to.deep.equal({ customer: ['name', 'email'] });
      expect(parse({ embed: 'group.description' }).embed).to.deep.equal({ group: ['description'] });
    });

    it('expands the whole resource when both it and a sub-field are named, in either order', () => {
      expect(parse({ embed: 'customer,customer.name' }).embed).to.deep.equal({ customer: 'all' });
      expect(parse({ embed: 'customer.name,customer' }).embed).to.deep.equal({ customer: 'all' });
    });

    it('refuses an unknown relation or sub-field, naming it', () => {
      expect(issuesOf({ embed: 'messages' })).to.deep.equal([['embed', 'messages']]);
      expect(issuesOf({ embed: 'customer.password' })).to.deep.equal([['embed', 'customer.password']]);
      expect(issuesOf({ embed: 'group.email' })).to.deep.equal([['embed', 'group.email']]);
      expect(issuesOf({ embed: 'customer.name.first' })).to.deep.equal([['embed', 'customer.name.first']]);
      expect(issuesOf({ embed: 'customer.' })).to.deep.equal([['embed', 'customer.']]);
    });
  });

  describe('page and per_page', () => {
    it('per_page defaults to 30 and goes up to 100', () => {
      expect(parse({}).perPage).to.equal(30);
      expect(parse({ per_page: '1' }).perPage).to.equal(1);
      expect(parse({ per_page: '100' }).perPage).to.equal(100);
    });

    for (const bad of ['0', '101', '-1', 'abc', '1.5', '', '1e2', '030']) {
      it(`refuses per_page=${JSON.stringify(bad)}`, () => {
        expect(issuesOf({ per_page: bad })).to.deep.equal([['per_page', bad]]);
      });
    }

    it('page counts from 1', () => {
      expect(parse({}).page).to.equal(1);
      expect(parse({ page: '1' }).page).to.equal(1);
      expect(parse({ page: '7' }).page).to.equal(7);
    });

    for (const bad of ['0', '-1', 'abc', '1.5', '']) {
      it(`refuses page=${JSON.stringify(bad)}`, () => {
        expect(issuesOf({ page: bad })).to.deep.equal([['page', bad]]);
      });
    }

    it('accepts every per_page from 1 to 100 and nothing above', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 1000 }), (n) => {
          const r = parseTicketQuery({ per_page: String(n) });
          if (n <= 100) expect(rightOf(r).perPage).to.equal(n);
          else expect(issuesOf({ per_page: String(n) })).to.deep.equal([['per_page', String(n)]]);
        }),
        { numRuns: 200 },
      );
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
      for (const [perPage, deepest] of [[1, 10_000], [30, 334], [100, 100], [7, 1429]] as const) {
        expect(deepestPage(perPage)).to.equal(deepest);
        expect(pageTooDeep({ page: deepest, perPage }), `page ${deepest} of ${perPage}`).to.equal(null);
        expect(pageTooDeep({ page: deepest + 1, perPage })).to.deep.equal({ _tag: 'PageTooDeep', maxOffset: 10_000, deepestPage: deepest });
      }
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 100 }), (page, perPage) => {
          expect(pageTooDeep({ page, perPage }) === null).to.equal(pageOffset({ page, perPage }) < 10_000);
        }),
      );
    });
  });

  it('reports every bad parameter at once', () => {
    expect(
      issuesOf({
        state: 'opened',
        sort: 'colour',
        fields: 'password',
        embed: 'messages',
        page: '0',
        per_page: '101',
        q: 'anything',
        unknown: 'ignored',
      }),
    ).to.have.deep.members([
      ['state', 'opened'],
      ['sort', 'colour'],
      ['fields', 'password'],
      ['embed', 'messages'],
      ['page', '0'],
      ['per_page', '101'],
    ]);
  });

  it('reports every bad item of one parameter', () => {
    expect(issuesOf({ state: 'a,open,b' })).to.deep.equal([
      ['state', 'a'],
      ['state', 'b'],
    ]);
  });

  describe('ticketFilter', () => {
    it('passes states and terms through and sees every customer for staff', () => {
      expect(ticketFilter(parse({ state: 'open,pending', q: 'Printer' }), null, NOW)).to.deep.equal({
        states: ['open', 'pending'],
        customerId: null,
        words: ['printer'],
        closedSince: null,
      });
    });

    it('limits a customer to their own tickets', () => {
      expect(ticketFilter(parse({}), userId(7), NOW).customerId).to.equal(7);
    });

    it('recently_closed: closed tickets whose closed_at is within the last 7 days', () => {
      const f = ticketFilter(parse({ q: 'recently_closed' }), null, NOW);
      expect(f.states).to.deep.equal(['closed']);
      expect(f.closedSince).to.equal(NOW - 7 * 24 * 60 * 60 * 1000);
    });

    it('recently_closed intersects with an explicit state list', () => {
      expect(ticketFilter(parse({ q: 'recently_closed', state: 'open,closed' }), null, NOW).states).to.deep.equal(['closed']);
      const none = ticketFilter(parse({ q: 'recently_closed', state: 'open' }), null, NOW);
      expect(none.states).to.deep.equal([]);
      expect(matches(none, aTicket({ state: 'closed', closedAt: NOW - 1 }))).to.equal(false);
      expect(matches(none, aTicket({ state: 'open' }))).to.equal(false);
    });
  });

  describe('matchesTicket', () => {
    const everything: TicketFilter = { states: null, customerId: null, words: [], closedSince: null };

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
      const words = (q: string): TicketFilter => ticketFilter(parse({ q }), null, NOW);
      expect(matches(words('PRINTER smoke'), t)).to.equal(true);
      expect(matches(words('zoe angstrom 101'), t)).to.equal(true);
      expect(matches(words('printer water'), t)).to.equal(false);
      expect(matches(words('print'), t)).to.equal(false); // whole words only
    });

    it('a recently_closed query finds exactly the tickets closed within the last 7 days', () => {
      const f = ticketFilter(parse({ q: 'recently_closed' }), null, NOW);
      expect(matches(f, aTicket({ state: 'closed', closedAt: NOW - 6 * DAY }))).to.equal(true);
      expect(matches(f, aTicket({ state: 'closed', closedAt: NOW - 8 * DAY }))).to.equal(false);
      expect(matches(f, aTicket({ state: 'open' }))).to.equal(false);
      expect(matches(f, aTicket({ state: 'closed', closedAt: NOW - DAY, deletedAt: NOW }))).to.equal(false);
    });
  });
});
