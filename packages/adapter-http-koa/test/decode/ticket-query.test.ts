import { expect } from 'chai';
import fc from 'fast-check';
import { decodePage } from '../../src/decode/page.js';
import type { QueryParams } from '../../src/decode/query-params.js';
import { decodeTicketList, decodeTicketRead } from '../../src/decode/ticket-query.js';
import { parseDateTime } from '../../src/decode/queue-params.js';
import { noQueueQuery } from '@support/domain';
import type { RepresentationOptions } from '../../src/representations/fields.js';
import { issuePairs, leftOf, rightOf } from '../support/decoding.js';

const parse = (params: QueryParams) => rightOf(decodeTicketList(params).query);
const shown = (params: QueryParams): RepresentationOptions => decodeTicketList(params).shown;

/** The [parameter, value] pairs of a refused query; fails the test if the query was accepted. */
const issuesOf = (params: QueryParams): Array<[string, string]> => issuePairs(leftOf(decodeTicketList(params).query));

describe('queue filters (contract §5)', () => {
  it('reads ids, me and none from a comma list or a repeated parameter; a value given twice is refused, named (issue 24: one rule for every list)', () => {
    expect(parse({ assigned_user_id: ['7', 'me,none'] }).queue.assignees).to.deep.equal({
      ids: [7],
      me: true,
      none: true,
    });
    expect(parse({ group_id: 'none' }).queue.groups).to.deep.equal({ ids: [], none: true });
    expect(parse({ customer_id: '3,4' }).queue.customerIds).to.deep.equal([3, 4]);
    expect(parse({ priority: 'urgent,high' }).queue.priorities).to.deep.equal(['urgent', 'high']);
    expect(parse({ tags: 'vip, billing' }).queue.tags).to.deep.equal(['vip', 'billing']);
    expect(issuePairs(leftOf(decodeTicketList({ assigned_user_id: ['7', 'me,none', '7'] }).query))).to.deep.equal([
      ['assigned_user_id', '7'],
    ]);
    expect(issuePairs(leftOf(decodeTicketList({ priority: 'urgent,high,urgent' }).query))).to.deep.equal([
      ['priority', 'urgent'],
    ]);
    expect(issuePairs(leftOf(decodeTicketList({ tags: 'vip, billing,vip' }).query))).to.deep.equal([['tags', 'vip']]);
  });

  it('refuses what no id, word or value is, naming the parameter', () => {
    expect(
      issuesOf({ assigned_user_id: 'x', group_id: 'me', customer_id: 'none', priority: 'critical' }),
    ).to.deep.equal([
      ['assigned_user_id', 'x'],
      ['group_id', 'me'],
      ['customer_id', 'none'],
      ['priority', 'critical'],
    ]);
  });

  it('updated_since: RFC 3339 date-times, offsets and fractions (rounded up to the millisecond); anything else refused', () => {
    const at = (s: string): number | null => parseDateTime(s);
    expect(at('2026-11-25T08:00:00Z')).to.equal(Date.UTC(2026, 10, 25, 8));
    expect(at('2026-11-25t09:30:00+01:30')).to.equal(Date.UTC(2026, 10, 25, 8));
    expect(at('2026-11-25T09:00:00 01:00')).to.equal(Date.UTC(2026, 10, 25, 8));
    expect(at('2026-11-25T07:00:00-01:00')).to.equal(Date.UTC(2026, 10, 25, 8));
    expect(at('2026-11-25T08:00:00.123Z')).to.equal(Date.UTC(2026, 10, 25, 8) + 123);
    expect(at('2026-11-25T08:00:00.1230001Z')).to.equal(Date.UTC(2026, 10, 25, 8) + 124);
    expect(at('0050-01-01T00:00:00Z')).to.equal(new Date('0050-01-01T00:00:00Z').getTime());
    for (const bad of [
      '2026-11-25',
      '2026-11-25T08:00:00',
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-11-25T24:00:00Z',
      '2026-11-25T08:60:00Z',
      'yesterday',
      '',
    ]) {
      expect(at(bad), bad).to.equal(null);
    }
    expect(parse({ updated_since: '2026-11-25T08:00:00Z' }).queue.updatedSince).to.equal(Date.UTC(2026, 10, 25, 8));
    expect(issuesOf({ updated_since: 'yesterday' })).to.deep.equal([['updated_since', 'yesterday']]);
  });
});

describe('ticket list query string', () => {
  it('without parameters: every state, no terms, -created_at, every field, no embeds, page 1 of 30', () => {
    expect(parse({})).to.deep.equal({
      states: null,
      recentlyClosed: false,
      terms: [],
      sort: [
        { field: 'createdAt', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ],
      embed: [],
      queue: noQueueQuery,
      page: 1,
      perPage: 30,
    });
    expect(shown({})).to.deep.equal({ fields: null, embed: {} });
  });

  it('ignores unknown parameters', () => {
    expect(parse({ access_token: 'secret', pretty: 'false', envelope: 'true', colour: 'red' })).to.deep.equal(
      parse({}),
    );
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

    it('refuses a state named twice (in one list or across repeated parameters), naming the repeat once', () => {
      expect(issuesOf({ state: 'pending,open,pending' })).to.deep.equal([['state', 'pending']]);
      expect(issuesOf({ state: 'open,open,open' })).to.deep.equal([['state', 'open']]);
      expect(issuesOf({ state: ['open', 'open'] })).to.deep.equal([['state', 'open']]);
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
        { field: 'createdAt', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ]);
      expect(parse({ sort: 'subject' }).sort).to.deep.equal([
        { field: 'subject', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ]);
    });

    it('accepts every sortable field of the contract, under its domain name', () => {
      const fields = [
        ['id', 'id'],
        ['subject', 'subject'],
        ['state', 'state'],
        ['priority', 'priority'],
        ['created_at', 'createdAt'],
        ['updated_at', 'updatedAt'],
        ['closed_at', 'closedAt'],
      ];
      for (const [wire, field] of fields) {
        expect(parse({ sort: `-${wire}` }).sort[0]).to.deep.equal({ field, direction: 'desc' });
      }
    });

    it("refuses a domain name the API spells otherwise, naming the API's fields", () => {
      expect(issuesOf({ sort: '-createdAt' })).to.deep.equal([['sort', '-createdAt']]);
      const issues = leftOf(decodeTicketList({ sort: 'closedAt' }).query);
      expect(issues[0]?.message).to.equal(
        'cannot sort by "closedAt"; sortable fields are: id, subject, state, priority, created_at, updated_at, closed_at',
      );
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
        { field: 'closedAt', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ]);
      expect(parse({ q: ' recently_closed ' }).recentlyClosed).to.equal(true);
    });

    it('the /tickets/recently_closed alias means the same as q=recently_closed', () => {
      expect(rightOf(decodeTicketList({}, true).query)).to.deep.equal(parse({ q: 'recently_closed' }));
    });

    it('an explicit sort replaces the saved search default', () => {
      expect(rightOf(decodeTicketList({ sort: 'priority' }, true).query).sort).to.deep.equal([
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
      expect(shown({ fields: 'id,subject,customer_name' }).fields).to.deep.equal(['id', 'subject', 'customer_name']);
    });

    it('refuses a field named twice, naming it', () => {
      expect(issuesOf({ fields: 'id,id' })).to.deep.equal([['fields', 'id']]);
      expect(issuesOf({ fields: 'subject,id,subject' })).to.deep.equal([['fields', 'subject']]);
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
    it('expands customer, assigned_user and group, and the query loads them', () => {
      expect(shown({ embed: 'customer,assigned_user,group' }).embed).to.deep.equal({
        customer: 'all',
        assignedUser: 'all',
        group: 'all',
      });
      expect(parse({ embed: 'group,customer' }).embed).to.deep.equal(['customer', 'group']);
      expect(parse({ embed: 'assigned_user.name' }).embed).to.deep.equal(['assignedUser']);
      expect(issuesOf({ embed: 'assignedUser' }), 'the domain name is no name of the API').to.deep.equal([
        ['embed', 'assignedUser'],
      ]);
    });

    it('takes dotted sub-fields (customer.name: the link object plus name)', () => {
      expect(shown({ embed: 'customer.name,assigned_user' }).embed).to.deep.equal({
        customer: ['name'],
        assignedUser: 'all',
      });
      expect(shown({ embed: 'group.description' }).embed).to.deep.equal({ group: ['description'] });
    });

    it('refuses an item named twice, naming it (a relation and one of its sub-fields are two items)', () => {
      expect(issuesOf({ embed: 'customer,customer' })).to.deep.equal([['embed', 'customer']]);
      expect(issuesOf({ embed: 'customer.name,customer.email,customer.name' })).to.deep.equal([
        ['embed', 'customer.name'],
      ]);
    });

    it('expands the whole resource when both it and a sub-field are named, in either order', () => {
      expect(shown({ embed: 'customer,customer.name' }).embed).to.deep.equal({ customer: 'all' });
      expect(shown({ embed: 'customer.name,customer' }).embed).to.deep.equal({ customer: 'all' });
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
          const r = decodeTicketList({ per_page: String(n) }).query;
          if (n <= 100) expect(rightOf(r).perPage).to.equal(n);
          else expect(issuesOf({ per_page: String(n) })).to.deep.equal([['per_page', String(n)]]);
        }),
        { numRuns: 200 },
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
});

describe('single ticket query string', () => {
  it('reads fields and embed, loading the embedded relations', () => {
    const read = decodeTicketRead({ fields: 'id,customer', embed: 'customer.name', state: 'ignored' });
    expect(rightOf(read.embed)).to.deep.equal(['customer']);
    expect(read.shown).to.deep.equal({ fields: ['id', 'customer'], embed: { customer: ['name'] } });
  });

  it('reports every bad fields and embed item at once', () => {
    expect(issuePairs(leftOf(decodeTicketRead({ fields: 'colour', embed: 'messages' }).embed))).to.deep.equal([
      ['fields', 'colour'],
      ['embed', 'messages'],
    ]);
  });
});

describe('page query string', () => {
  it('reads page and per_page, 1 and 30 by default', () => {
    expect(rightOf(decodePage({}))).to.deep.equal({ page: 1, perPage: 30 });
    expect(rightOf(decodePage({ page: '3', per_page: '100' }))).to.deep.equal({ page: 3, perPage: 100 });
  });

  it('refuses both at once, naming each value, and a page given twice', () => {
    expect(issuePairs(leftOf(decodePage({ page: '0', per_page: '101' })))).to.deep.equal([
      ['page', '0'],
      ['per_page', '101'],
    ]);
    const twice = leftOf(decodePage({ page: ['1', '2'] }));
    expect(twice.map((i) => i.message)).to.deep.equal(['page must be given once (got 2 values)']);
  });
});
