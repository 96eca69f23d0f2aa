import { expect } from 'chai';
import { decodeTicketList } from '../../src/decode/ticket-query.js';
import { parseDateTime } from '../../src/decode/queue-params.js';
import { issuePairs, leftOf } from '../support/decoding.js';
import { issuesOf, parse } from '../support/ticket-list-query.js';

// The queue filters of the ticket list query (decode/queue-params.ts), read through the ticket
// list's decoder as a client sends them.

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
