import { expect } from 'chai';
import fc from 'fast-check';
import {
  matchesQueue,
  noQueueConditions,
  noQueueQuery,
  priorities,
  queueConditions,
  type LinkCondition,
  type QueueConditions,
  type Ticket,
} from '../src/index.js';
import { aTicket, groupId, userId } from '../test-support/mothers.js';

// The queue filters (contract §5, "Queue filters"), each condition alone as the contract words
// it, then together: AND across conditions, OR within one list, every listed tag.

const anyTicket: fc.Arbitrary<Ticket> = fc
  .record({
    customerId: fc.integer({ min: 1, max: 4 }),
    assignedUserId: fc.option(fc.integer({ min: 1, max: 4 })),
    groupId: fc.option(fc.integer({ min: 1, max: 3 })),
    priority: fc.constantFrom(...priorities),
    tags: fc.subarray(['vip', 'billing', 'bug']),
    // Any instant a Date can hold, before 1970 too.
    updatedAt: fc.integer({ min: -8.64e15, max: 8.64e15 }),
  })
  .map((s) => aTicket({ ...s, createdAt: s.updatedAt }));

const link = <Id extends number>(brand: (n: number) => Id, max: number): fc.Arbitrary<LinkCondition<Id> | null> =>
  fc.option(fc.record({ ids: fc.array(fc.integer({ min: 1, max }).map(brand), { maxLength: 3 }), none: fc.boolean() }));

const anyConditions: fc.Arbitrary<QueueConditions> = fc.record({
  customerIds: fc.option(fc.array(fc.integer({ min: 1, max: 4 }).map(userId), { maxLength: 3 })),
  assignees: link(userId, 4),
  groups: link(groupId, 3),
  priorities: fc.option(fc.subarray([...priorities])),
  tags: fc.subarray(['vip', 'billing', 'bug']),
  updatedSince: fc.option(fc.integer({ min: -8.64e15, max: 8.64e15 })),
});

/** The conditions of `c` one at a time, each with every other condition absent. */
const eachAlone = (c: QueueConditions): QueueConditions[] => [
  { ...noQueueConditions, customerIds: c.customerIds },
  { ...noQueueConditions, assignees: c.assignees },
  { ...noQueueConditions, groups: c.groups },
  { ...noQueueConditions, priorities: c.priorities },
  { ...noQueueConditions, tags: c.tags },
  { ...noQueueConditions, updatedSince: c.updatedSince },
];

const linkRule = <Id extends number>(c: LinkCondition<Id> | null, value: Id | null): boolean =>
  c === null || (value === null ? c.none : c.ids.includes(value));

describe('domain: the queue filters (contract §5)', () => {
  it('no condition matches every ticket, whatever its fields and times', () => {
    fc.assert(fc.property(anyTicket, (t) => matchesQueue(noQueueConditions, t)));
  });

  it('each condition alone matches as the contract words it', () => {
    fc.assert(
      fc.property(anyConditions, anyTicket, (c, t) => {
        const [customers, assignees, groups, prios, tags, since] = eachAlone(c).map((one) => matchesQueue(one, t));
        expect(customers, 'customer_id: one of the listed customers').to.equal(
          c.customerIds === null || c.customerIds.includes(t.customerId),
        );
        expect(assignees, 'assigned_user_id: one of the ids, or none when unassigned').to.equal(
          linkRule(c.assignees, t.assignedUserId),
        );
        expect(groups, 'group_id: one of the ids, or none when in no group').to.equal(linkRule(c.groups, t.groupId));
        expect(prios, 'priority: one of those listed').to.equal(
          c.priorities === null || c.priorities.includes(t.priority),
        );
        expect(tags, 'tag: carries every listed tag').to.equal(c.tags.every((tag) => t.tags.includes(tag)));
        expect(since, 'updated_since: updated at or after').to.equal(
          c.updatedSince === null || t.updatedAt >= c.updatedSince,
        );
      }),
    );
  });

  it('conditions AND together: a ticket matches all of them exactly when it matches each alone', () => {
    fc.assert(
      fc.property(anyConditions, anyTicket, (c, t) => {
        expect(matchesQueue(c, t)).to.equal(eachAlone(c).every((one) => matchesQueue(one, t)));
      }),
    );
  });

  it('an empty list matches nothing; `none` alone matches only what has no link', () => {
    const t = aTicket({ assignedUserId: null, groupId: 2 });
    expect(matchesQueue({ ...noQueueConditions, customerIds: [] }, t)).to.equal(false);
    expect(matchesQueue({ ...noQueueConditions, priorities: [] }, t)).to.equal(false);
    expect(matchesQueue({ ...noQueueConditions, assignees: { ids: [], none: true } }, t)).to.equal(true);
    expect(matchesQueue({ ...noQueueConditions, groups: { ids: [], none: true } }, t)).to.equal(false);
    expect(matchesQueue({ ...noQueueConditions, groups: { ids: [groupId(2)], none: false } }, t)).to.equal(true);
  });
});

describe('domain: the queue filters for a caller (queueConditions)', () => {
  const assigned = (ids: number[], me: boolean, none = false): typeof noQueueQuery => ({
    ...noQueueQuery,
    assignees: { ids: ids.map(userId), me, none },
  });

  it('assigned_user_id=me adds the caller to the ids, once; without me the caller is not added', () => {
    expect(queueConditions(assigned([3], true), userId(9), null).assignees).to.deep.equal({ ids: [3, 9], none: false });
    expect(queueConditions(assigned([9, 3], true, true), userId(9), null).assignees).to.deep.equal({
      ids: [9, 3],
      none: true,
    });
    expect(queueConditions(assigned([3, 3], false), userId(9), null).assignees).to.deep.equal({
      ids: [3],
      none: false,
    });
    expect(queueConditions(assigned([], false, true), userId(9), null).assignees).to.deep.equal({
      ids: [],
      none: true,
    });
  });

  it('assigned_user_id=me without a known caller is a programming error, not an empty list', () => {
    expect(() => queueConditions(assigned([3], true), null, null)).to.throw('assigned_user_id=me needs the caller');
    expect(queueConditions(assigned([3], false), null, null).assignees).to.deep.equal({ ids: [3], none: false });
  });

  it('keeps the other conditions as given, each list without repeats', () => {
    const q = {
      ...noQueueQuery,
      customerIds: [userId(2), userId(2), userId(5)],
      priorities: ['high' as const],
      tags: ['vip'],
      updatedSince: 42,
    };
    expect(queueConditions(q, userId(9), null)).to.deep.equal({
      customerIds: [2, 5],
      assignees: null,
      groups: null,
      priorities: ['high'],
      tags: ['vip'],
      updatedSince: 42,
    });
  });

  it("a customer's customer_id list is no condition when it names them, and nothing when it does not", () => {
    const q = (ids: number[]): typeof noQueueQuery => ({ ...noQueueQuery, customerIds: ids.map(userId) });
    expect(queueConditions(q([7, 8]), userId(7), userId(7)).customerIds).to.equal(null);
    expect(queueConditions(q([8]), userId(7), userId(7)).customerIds).to.deep.equal([]);
    expect(queueConditions(noQueueQuery, userId(7), userId(7)).customerIds).to.equal(null);
  });
});
