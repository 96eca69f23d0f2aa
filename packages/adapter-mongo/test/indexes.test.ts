import { expect } from 'chai';
import type { CollectionKey } from '../src/collections.js';
import { indexDescriptions, indexSpecs, ticketIndexName, type IndexSpec } from '../src/indexes.js';
import { sortFieldPaths } from '../src/ticket-query.js';

// The declared indexes: names, unique and TTL options, the bulk writes' leading keys. That
// every search is served by them is proven in index-coverage.test.ts.

const ticketIndexes = indexSpecs.filter((s) => s.collection === 'tickets');
const keysOf = (s: IndexSpec): string[] => Object.keys(s.key);

describe('indexes', () => {
  it('are declared once each, with unique names, at most 64 per collection', () => {
    const names = indexSpecs.map((s) => s.name);
    expect(new Set(names).size).to.equal(names.length);
    for (const c of [
      'tickets',
      'messages',
      'users',
      'groups',
      'tokens',
      'rateLimits',
      'idempotency',
      'webhooks',
      'deliveries',
      'events',
      'counters',
    ] as CollectionKey[]) {
      expect(indexSpecs.filter((s) => s.collection === c).length).to.be.at.most(63);
    }
  });

  it('make e-mails, group names and message numbers unique; expire tokens, rate-limit counters and idempotency keys by TTL', () => {
    expect(indexDescriptions('users')).to.deep.include({
      name: 'users_email_unique',
      key: { emailKey: 1 },
      unique: true,
    });
    expect(indexDescriptions('groups')).to.deep.equal([
      { name: 'groups_name_unique', key: { nameKey: 1 }, unique: true },
    ]);
    expect(indexDescriptions('messages')).to.deep.equal([
      { name: 'messages_ticket_number', key: { ticketId: 1, number: 1 }, unique: true },
    ]);
    expect(indexDescriptions('tokens')).to.deep.include({
      name: 'tokens_expiry_ttl',
      key: { expiresAt: 1 },
      expireAfterSeconds: 0,
    });
    expect(indexDescriptions('rateLimits')).to.deep.equal([
      { name: 'rate_limits_expiry_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 },
    ]);
    expect(indexDescriptions('idempotency')).to.deep.equal([
      { name: 'idempotency_expiry_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 },
    ]);
    expect(indexDescriptions('counters')).to.deep.equal([]);
  });

  it('serve the bulk updates and revocations by an index: unassign, clear group, rename, remove group, revoke family/user', () => {
    const leading = (collection: CollectionKey, field: string) =>
      indexSpecs.some((s) => s.collection === collection && keysOf(s)[0] === field);
    expect(leading('tickets', 'assignedUserId')).to.equal(true);
    expect(leading('tickets', 'groupId')).to.equal(true);
    expect(leading('tickets', 'customerId')).to.equal(true);
    expect(leading('users', 'groupIds')).to.equal(true);
    expect(leading('tokens', 'familyId')).to.equal(true);
    expect(leading('tokens', 'userId')).to.equal(true);
  });

  it("tickets: one index per family (live, customer, state, assignee, group) and sort field, plus the words and tags indexes in created_at order, within MongoDB's 64", () => {
    for (const family of ['live', 'customer', 'state', 'assignee', 'group'] as const) {
      for (const path of Object.values(sortFieldPaths))
        expect(ticketIndexes.map((s) => s.name)).to.include(ticketIndexName.sorted(family, path));
    }
    const words = ticketIndexes.filter((s) => keysOf(s)[0] === 'words');
    expect(words.map((s) => s.key)).to.deep.equal([{ words: 1, deleted: 1, createdAt: 1, _id: 1 }]);
    const tags = ticketIndexes.filter((s) => keysOf(s)[0] === 'tags');
    expect(tags.map((s) => s.key)).to.deep.equal([{ tags: 1, deleted: 1, createdAt: 1, _id: 1 }]);
    // Custom fields (contract §10): ONE compound multikey index over the {field id, value} entries.
    const custom = ticketIndexes.filter((s) => keysOf(s)[0] === 'cf.k');
    expect(custom.map((s) => s.key)).to.deep.equal([{ 'cf.k': 1, 'cf.v': 1, deleted: 1, createdAt: 1, _id: 1 }]);
    // Five families of seven, words, tags, custom fields and the two bulk-update indexes; with _id, 41 of the 64 MongoDB allows.
    expect(ticketIndexes).to.have.length(5 * 7 + 5);
  });
});
