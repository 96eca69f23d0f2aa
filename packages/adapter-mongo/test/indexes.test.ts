import { sortFields } from '@support/domain';
import { expect } from 'chai';
import type { CollectionKey } from '../src/collections.js';
import { indexDescriptions, indexSpecs, type IndexSpec } from '../src/indexes.js';
import { sortFieldPaths } from '../src/ticket-query.js';

// One index for every query shape the application issues. A static check of the declared
// indexes against the ESR rule (the real planner's choice is checked by explain() in the
// MongoDB contract run, which needs a mongod).

const ticketIndexes = indexSpecs.filter((s) => s.collection === 'tickets');
const keysOf = (s: IndexSpec): string[] => Object.keys(s.key);

/** Keys before the sort field all bound by equality, then the sort field, then _id: no in-memory sort. */
const providesSort = (s: IndexSpec, bound: ReadonlySet<string>, sortPath: string): boolean => {
  const keys = keysOf(s);
  const at = keys.indexOf(sortPath);
  if (at < 0) return false;
  const tieBreakerFollows = sortPath === '_id' || keys[at + 1] === '_id';
  return tieBreakerFollows && keys.slice(0, at).every((k) => bound.has(k));
};

describe('indexes', () => {
  it('are declared once each, with unique names, at most 64 per collection', () => {
    const names = indexSpecs.map((s) => s.name);
    expect(new Set(names).size).to.equal(names.length);
    for (const c of ['tickets', 'messages', 'users', 'groups', 'tokens', 'rateLimits', 'idempotency', 'webhooks', 'deliveries', 'events', 'counters'] as CollectionKey[]) {
      expect(indexSpecs.filter((s) => s.collection === c).length).to.be.at.most(63);
    }
  });

  it('make e-mails, group names and message numbers unique; expire tokens, rate-limit counters and idempotency keys by TTL', () => {
    expect(indexDescriptions('users')).to.deep.include({ name: 'users_email_unique', key: { emailKey: 1 }, unique: true });
    expect(indexDescriptions('groups')).to.deep.equal([{ name: 'groups_name_unique', key: { nameKey: 1 }, unique: true }]);
    expect(indexDescriptions('messages')).to.deep.equal([{ name: 'messages_ticket_number', key: { ticketId: 1, number: 1 }, unique: true }]);
    expect(indexDescriptions('tokens')).to.deep.include({ name: 'tokens_expiry_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 });
    expect(indexDescriptions('rateLimits')).to.deep.equal([{ name: 'rate_limits_expiry_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 }]);
    expect(indexDescriptions('idempotency')).to.deep.equal([{ name: 'idempotency_expiry_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 }]);
    expect(indexDescriptions('counters')).to.deep.equal([]);
  });

  it('serve the bulk updates and revocations by an index: unassign, clear group, rename, remove group, revoke family/user', () => {
    const leading = (collection: CollectionKey, field: string) => indexSpecs.some((s) => s.collection === collection && keysOf(s)[0] === field);
    expect(leading('tickets', 'assignedUserId')).to.equal(true);
    expect(leading('tickets', 'groupId')).to.equal(true);
    expect(leading('tickets', 'customerId')).to.equal(true);
    expect(leading('users', 'groupIds')).to.equal(true);
    expect(leading('tokens', 'familyId')).to.equal(true);
    expect(leading('tokens', 'userId')).to.equal(true);
  });

  const shapes = [
    { customer: false, state: false },
    { customer: true, state: false },
    { customer: false, state: true },
    { customer: true, state: true },
  ];
  for (const { customer, state } of shapes) {
    for (const recentlyClosed of [false, true]) {
      for (const field of sortFields) {
        const sortPath = sortFieldPaths[field];
        const label = `customer ${customer ? 'set' : 'unset'}, state ${state || recentlyClosed ? 'set' : 'unset'}${recentlyClosed ? ', closedAt range' : ''}, sort ${field} (either direction)`;
        it(`tickets: ${label} has an index with the equalities first, then the sort and _id`, () => {
          const bound = new Set(['deleted', ...(customer ? ['customerId'] : []), ...(state || recentlyClosed ? ['state'] : [])]);
          // The most selective equality leads: a customer's tickets, else the state's.
          const lead = customer ? 'customerId' : state || recentlyClosed ? 'state' : 'deleted';
          const serving = ticketIndexes.filter((s) => keysOf(s)[0] === lead && providesSort(s, bound, sortPath));
          expect(serving.map((s) => s.name), label).to.have.length.above(0);
          if (recentlyClosed && field === 'closed_at') {
            // E S R: the range on closedAt is on the sort key right after the equalities.
            expect(serving.some((s) => keysOf(s).indexOf('closedAt') === keysOf(s).indexOf('deleted') + 1)).to.equal(true);
          }
        });
      }
    }
  }

  it('tickets: a q search is an index lookup on the words, in the default -created_at order', () => {
    const words = ticketIndexes.filter((s) => keysOf(s)[0] === 'words');
    expect(words.map((s) => s.key)).to.deep.equal([{ words: 1, deleted: 1, createdAt: 1, _id: 1 }]);
    expect(providesSort(words[0]!, new Set(['words', 'deleted']), 'createdAt')).to.equal(true);
  });
});
