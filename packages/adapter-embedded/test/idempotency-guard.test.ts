import type { IdempotencyClaim } from '@support/application';
import { aTicket, aTokenRecord, hours } from '@support/application/testing';
import { expect } from 'chai';
import { CommitFailedError } from '../src/index.js';
import { startedStore, tempDirEachTest } from './temp-store.js';

// IdempotencyStore.guard on the embedded store: a keyed request's first durable write marks its
// claim "written" in that write's own commit, so the two reach the disk together or not at all.
// (The contract suite holds every store to "a written claim is never taken over"; this is what
// only a store that marks in the write's commit can promise: a request that wrote nothing may
// run again, and a write refused by its commit leaves the claim unmarked; and, one process per
// data directory, a claim found at a start is abandoned at once. The crash itself, in
// a real process: packages/server/test/faults/idempotency-crash.test.ts.)

const claimAt = (owner: string, now: number): IdempotencyClaim => ({
  owner,
  fingerprint: `fp-${owner}`,
  now,
  leaseUntil: now + 1000,
  expiresAt: now + hours(24),
});

describe('Embedded store: an Idempotency-Key claim is marked by its request first write, in the same commit', function () {
  this.timeout(60_000);
  let dir = '';
  tempDirEachTest((made) => (dir = made));

  it('a request that wrote leaves its claim marked across a restart; one that only read (or took ids) runs again; neither waits out its lease after the restart', async () => {
    const now = Date.now();
    const first = await startedStore(dir);
    try {
      await first.idempotency.claim('user:1', 'wrote', claimAt('a', now));
      await first.idempotency.guard('user:1', 'wrote', 'a', () => first.tickets.insert(aTicket({ id: 1 })));
      await first.idempotency.claim('user:1', 'read', claimAt('b', now));
      await first.idempotency.guard('user:1', 'read', 'b', async () => {
        await first.tickets.findById(1 as never);
        await first.ids.next('tickets');
      });
    } finally {
      await first.close();
    }
    const second = await startedStore(dir);
    try {
      // Within the claims' lease, but their process is gone: answered at once.
      expect(await second.idempotency.claim('user:1', 'wrote', claimAt('c', now + 10))).to.deep.equal({
        kind: 'answer_lost',
        fingerprint: 'fp-a',
      });
      expect(await second.idempotency.claim('user:1', 'read', claimAt('c', now + 10))).to.deep.equal({
        kind: 'claimed',
      });
      expect((await second.tickets.findById(1 as never))?.id).to.equal(1);
    } finally {
      await second.close();
    }
  });

  it('a write refused by its commit takes the mark with it: after a restart neither is there', async () => {
    const now = Date.now();
    let failing = false;
    const first = await startedStore(dir, {
      beforeCommit: () => {
        if (failing) throw new Error('EIO: injected');
      },
      onFailure: () => undefined,
      log: () => undefined,
    });
    try {
      await first.idempotency.claim('user:1', 'k', claimAt('a', now));
      failing = true;
      const refused = await first.idempotency
        .guard('user:1', 'k', 'a', () => first.tokens.save(aTokenRecord({ hash: 'h-refused' })))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(refused).to.be.instanceOf(CommitFailedError);
    } finally {
      await first.close();
    }
    const second = await startedStore(dir);
    try {
      expect(await second.tokens.find('h-refused', now)).to.equal(null);
      expect(await second.idempotency.claim('user:1', 'k', claimAt('b', now + 10))).to.deep.equal({
        kind: 'claimed',
      });
    } finally {
      await second.close();
    }
  });
});
