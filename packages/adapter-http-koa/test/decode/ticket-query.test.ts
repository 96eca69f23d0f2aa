import { expect } from 'chai';
import { decodeTicketRead } from '../../src/decode/ticket-query.js';
import { noQueueQuery } from '@support/domain';
import { issuePairs, leftOf, rightOf } from '../support/decoding.js';
import { issuesOf, parse, shown } from '../support/ticket-list-query.js';

// The ticket list's and a single ticket's query strings (decode/ticket-query.ts): state, fields,
// embed; sort and q in ticket-list-query.test.ts, the queue filters in queue-params.test.ts.

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
      custom: [],
      customKeys: [],
      page: 1,
      perPage: 30,
    });
    expect(shown({})).to.deep.equal({ fields: null, embed: {}, customKeys: [] });
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
    expect(rightOf(read.embed)).to.deep.equal({ embed: ['customer'], customKeys: [] });
    expect(read.shown).to.deep.equal({ fields: ['id', 'customer'], embed: { customer: ['name'] }, customKeys: [] });
  });

  it('reports every bad fields and embed item at once', () => {
    expect(issuePairs(leftOf(decodeTicketRead({ fields: 'colour', embed: 'messages' }).embed))).to.deep.equal([
      ['fields', 'colour'],
      ['embed', 'messages'],
    ]);
  });
});
