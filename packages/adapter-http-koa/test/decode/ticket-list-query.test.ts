import { expect } from 'chai';
import fc from 'fast-check';
import { decodeTicketList } from '../../src/decode/ticket-query.js';
import { leftOf, rightOf } from '../support/decoding.js';
import { issuesOf, parse, shown } from '../support/ticket-list-query.js';

describe('ticket list query string', () => {
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
        'cannot sort by "closedAt"; sortable fields are: id, subject, state, priority, created_at, updated_at, closed_at, cf.<key> (a ticket field)',
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
});
