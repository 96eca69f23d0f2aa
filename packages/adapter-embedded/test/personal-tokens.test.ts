import type { PersonalTokenRecord } from '@support/application';
import { carryOut, userId } from '@support/application/testing';
import { expect } from 'chai';
import { startedStore, tempDirEachTest } from './temp-store.js';

// Personal access tokens (contract §8.1) live in a journalled table of the memory engine
// (journalTables: personalTokens), so the embedded store keeps them across a restart: a token
// made before a close is still found by its hash after a reopen on the same directory, with its
// last use and the revocations made before the close, and its indexes (by hash, by user) are
// rebuilt at start.

const t0 = Date.UTC(2026, 0, 2);
const day = 24 * 60 * 60 * 1000;
const token = (id: number, hash: string): PersonalTokenRecord => ({
  id,
  userId: userId(7),
  name: `bot ${String(id)}`,
  scopes: ['tickets:read', 'events:read'],
  hash,
  createdAt: t0,
  expiresAt: t0 + 90 * day,
  lastUsedAt: null,
});

describe('Embedded store: personal access tokens survive a restart', function () {
  this.timeout(60_000);
  let dir = '';
  tempDirEachTest((made) => (dir = made));

  it('a token made before a close is found by its hash after a reopen, its last use kept; a token revoked before the close stays revoked', async () => {
    const kept = token(1, 'a'.repeat(64));
    const revoked = token(2, 'b'.repeat(64));
    const store = await startedStore(dir);
    try {
      await store.personalTokens.insert(kept);
      await store.personalTokens.insert(revoked);
      expect(await store.personalTokens.touch(1, t0 + 5_000, 60_000)).to.equal(true);
      expect(await store.personalTokens.revoke(2)).to.equal(true);
    } finally {
      await store.close();
    }
    const reopened = await startedStore(dir);
    try {
      expect(await reopened.personalTokens.findByHash('a'.repeat(64), t0 + 10_000)).to.deep.equal({
        ...kept,
        lastUsedAt: t0 + 5_000,
      });
      expect(
        await reopened.personalTokens.findByHash('b'.repeat(64), t0 + 10_000),
        'revoked before the close',
      ).to.equal(null);
      expect(await reopened.personalTokens.findById(2)).to.equal(null);
      expect(await reopened.personalTokens.list(userId(7), 0, 10)).to.deep.equal({
        items: [{ ...kept, lastUsedAt: t0 + 5_000 }],
        total: 1,
      });
      // The kept last use still holds back a second write within the minute.
      expect(await reopened.personalTokens.touch(1, t0 + 30_000, 60_000)).to.equal(false);
      // The user's index is rebuilt: revoking the user's tokens (a follow-up of their deletion) reaches the restored one.
      await carryOut(reopened, [{ op: 'revokePersonalTokens', userId: userId(7) }], t0 + 35_000);
      expect(await reopened.personalTokens.findByHash('a'.repeat(64), t0 + 40_000)).to.equal(null);
    } finally {
      await reopened.close();
    }
    const again = await startedStore(dir);
    try {
      expect(
        await again.personalTokens.findByHash('a'.repeat(64), t0 + 50_000),
        'the revocation after the reopen is durable too',
      ).to.equal(null);
    } finally {
      await again.close();
    }
  });
});
