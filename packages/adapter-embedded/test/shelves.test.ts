import { createMemoryStore } from '@support/adapter-memory';
import type { DeliveryRecord, Store, StoredAnswer } from '@support/application';
import type { Webhook, WebhookId } from '@support/domain';
import { expect } from 'chai';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { open } from 'lmdb';
import { CommitFailedError, dataFiles, formatVersion, tableOptions } from '../src/index.js';
import { startedStore, tempDirEachTest } from './temp-store.js';

// The kept Idempotency-Key answers and the webhook delivery logs live in LMDB and are read
// from it (adapter-memory's shelf.ts): the memory engine holds a key's claim and a log's span,
// not the bodies. A data directory of format 1 (answers and logs inside the loaded records)
// is brought to format 2 at open.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const now = Date.now();
const claimOf = (owner: string) => ({
  owner,
  fingerprint: `fp-${owner}`,
  now,
  leaseUntil: now + 60_000,
  expiresAt: now + 86_400_000,
});

/** Bytes held in ArrayBuffers (a Buffer's bytes) once garbage is collected. */
const heldBytes = (): number => {
  gc();
  gc();
  return process.memoryUsage().arrayBuffers;
};

/** Keeps `count` answers of `size` bytes each; answers what that left held in ArrayBuffers. */
const keepAnswers = async (store: Store, count: number, size: number): Promise<number> => {
  const before = heldBytes();
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const key = `big-${String(i)}`;
      await store.idempotency.claim('user:1', key, claimOf(key));
      await store.idempotency.complete('user:1', key, key, { status: 201, headers: {}, body: Buffer.alloc(size, i) });
    }),
  );
  return heldBytes() - before;
};

const aWebhook = (id: number): Webhook => ({
  id: id as WebhookId,
  url: 'https://hooks.example.com/1',
  events: ['*'],
  description: '',
  active: true,
  secret: 'whsec_x',
  lastDeliveredSeq: 0,
  failedAttempts: 0,
  nextAttemptAt: null,
  createdAt: now,
  updatedAt: now,
  version: 1,
});
const anAttempt = (seq: number): DeliveryRecord => ({
  webhookId: 1 as WebhookId,
  seq,
  deliveryId: `msg_${String(seq)}`,
  attempt: 1,
  attemptedAt: now + seq,
  status: 200,
  durationMs: 3,
  error: null,
  response: `ok ${String(seq)}`,
  nextAttemptAt: null,
});

describe('Embedded store: kept answers and delivery logs are read from LMDB', function () {
  this.timeout(60_000);
  let dir = '';
  tempDirEachTest((made) => (dir = made));

  it('does not hold kept answer bodies in memory (the memory store does), and replays them', async () => {
    const [count, size] = [48, 256 * 1024];
    const memory = createMemoryStore();
    const inMemory = await keepAnswers(memory, count, size);
    expect(inMemory, 'the memory store holds every body').to.be.above(0.8 * count * size);
    const store = await startedStore(dir);
    try {
      const embedded = await keepAnswers(store, count, size);
      expect(embedded, 'the embedded store holds none once durable').to.be.below(0.25 * count * size);
      const replay = await store.idempotency.claim('user:1', 'big-7', claimOf('again'));
      expect(
        replay.kind === 'completed' ? [replay.answer.body.length, replay.answer.body[size - 1]] : replay,
      ).to.deep.equal([size, 7]);
    } finally {
      await store.close();
    }
    // The reference the measure holds on the memory store until here.
    expect((await memory.idempotency.claim('user:1', 'big-7', claimOf('again'))).kind).to.equal('completed');
  });

  it('reads the log of a webhook from LMDB after a restart, trimmed there to the newest kept', async () => {
    const store = await startedStore(dir);
    try {
      await store.webhooks.insert(aWebhook(1));
      for (const seq of [1, 2, 3, 4]) await store.webhooks.recordDelivery(anAttempt(seq), 3);
    } finally {
      await store.close();
    }
    const env = open({ path: join(dir, dataFiles.store), maxDbs: 32 });
    try {
      expect([...env.openDB({ name: 'deliveryLog', ...tableOptions }).getKeys({})]).to.deep.equal([
        [1, 2],
        [1, 3],
        [1, 4],
      ]);
    } finally {
      await env.close();
    }
    const reopened = await startedStore(dir);
    try {
      expect((await reopened.webhooks.deliveries(1 as WebhookId, 10)).map((r) => r.seq)).to.deep.equal([4, 3, 2]);
    } finally {
      await reopened.close();
    }
  });

  it('a failed commit keeps neither the answer nor the attempt on disk; after a restart the next one keeps both', async () => {
    let failing = false;
    const store = await startedStore(dir, {
      beforeCommit: () => {
        if (failing) throw new Error('EIO: injected');
      },
      log: () => undefined,
    });
    const answer: StoredAnswer = { status: 201, headers: {}, body: Buffer.from('kept') };
    try {
      await store.webhooks.insert(aWebhook(1));
      await store.webhooks.recordDelivery(anAttempt(1), 5);
      await store.idempotency.claim('user:1', 'k', claimOf('a'));
      failing = true;
      const refused = await Promise.all([
        store.idempotency.complete('user:1', 'k', 'a', answer).then(
          () => null,
          (e: unknown) => e,
        ),
        store.webhooks.recordDelivery(anAttempt(2), 5).then(
          () => null,
          (e: unknown) => e,
        ),
      ]);
      expect(refused.map((e) => e instanceof CommitFailedError)).to.deep.equal([true, true]);
    } finally {
      await store.close();
    }
    // A restart loads what the disk holds: the claim, still its holder's and unanswered (a claim
    // found at a start is past its lease, so it is not asked for here: it would be taken over);
    // the log has one attempt.
    const restarted = await startedStore(dir);
    try {
      expect((await restarted.webhooks.deliveries(1 as WebhookId, 10)).map((r) => r.seq)).to.deep.equal([1]);
      expect(await restarted.idempotency.complete('user:1', 'k', 'a', answer)).to.equal(true);
      await restarted.webhooks.recordDelivery(anAttempt(2), 5);
    } finally {
      await restarted.close();
    }
    const reopened = await startedStore(dir);
    try {
      const replay = await reopened.idempotency.claim('user:1', 'k', claimOf('c'));
      expect(replay.kind === 'completed' ? Buffer.from(replay.answer.body).toString() : replay).to.equal('kept');
      expect((await reopened.webhooks.deliveries(1 as WebhookId, 10)).map((r) => r.seq)).to.deep.equal([2, 1]);
    } finally {
      await reopened.close();
    }
  });

  it('brings a format 1 directory (answers and logs inside the loaded records) to format 2 at open', async () => {
    const answer: StoredAnswer = { status: 201, headers: { Location: '/v1/tickets/7' }, body: Buffer.from('kept') };
    const env = open({ path: join(dir, dataFiles.store), maxDbs: 32 });
    const table = (name: string) => env.openDB({ name, ...tableOptions });
    const key = JSON.stringify(['user:1', 'k']);
    await env.transaction(() => {
      void table('meta').put('format', 1);
      void table('idempotency').put(key, {
        owner: 'a',
        fingerprint: 'fp-a',
        leaseUntil: now + 60_000,
        expiresAt: now + 86_400_000,
        answer,
      });
      void table('idempotency').put(JSON.stringify(['user:1', 'open']), {
        owner: 'b',
        fingerprint: 'fp-b',
        leaseUntil: now + 60_000,
        expiresAt: now + 86_400_000,
        answer: null,
      });
      void table('webhooks').put(1, aWebhook(1));
      void table('deliveries').put(1, [anAttempt(1), anAttempt(2)]);
    });
    await env.close();
    const store = await startedStore(dir);
    try {
      const replay = await store.idempotency.claim('user:1', 'k', claimOf('b'));
      expect(replay.kind === 'completed' ? Buffer.from(replay.answer.body).toString() : replay).to.equal('kept');
      // Unanswered, and its holder's: it keeps its answer (a claim found at a start is past its lease).
      expect(await store.idempotency.complete('user:1', 'open', 'b', answer)).to.equal(true);
      expect((await store.webhooks.deliveries(1 as WebhookId, 10)).map((r) => r.seq)).to.deep.equal([2, 1]);
      await store.webhooks.recordDelivery(anAttempt(3), 2);
      expect((await store.webhooks.deliveries(1 as WebhookId, 10)).map((r) => r.seq)).to.deep.equal([3, 2]);
    } finally {
      await store.close();
    }
    const after = open({ path: join(dir, dataFiles.store), maxDbs: 32 });
    try {
      expect(after.openDB({ name: 'meta', ...tableOptions }).get('format')).to.equal(formatVersion);
      expect(
        after.openDB({ name: 'deliveries', ...tableOptions }).getKeysCount({}),
        'the old log table is emptied',
      ).to.equal(0);
    } finally {
      await after.close();
    }
  });
});
