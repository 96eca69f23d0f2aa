import { expect } from 'chai';
import { decodePage } from '../../src/decode/page.js';
import { decodeTicketList, decodeTicketRead } from '../../src/decode/ticket-query.js';
import { parseDateTime } from '../../src/decode/queue-params.js';
import { noQueueQuery } from '@support/domain';
import { issuePairs, leftOf, rightOf } from '../support/decoding.js';
import { issuesOf, parse, shown } from '../support/ticket-list-query.js';

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
