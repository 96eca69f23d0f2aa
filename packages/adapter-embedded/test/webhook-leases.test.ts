import type { Webhook, WebhookId } from '@support/domain';
import { expect } from 'chai';
import { startedStore, tempDirEachTest } from './temp-store.js';

// A webhook's delivery lease lives in a journalled table of the memory engine (journalTables:
// leases), so the embedded store reads it back at a start: a lease taken before a close still
// keeps another owner out after a reopen until it runs out, and a lease given back before the
// close stays given back. The contract suite's reload mode reads it back too
// (contract.test.ts, "leases a webhook to one owner at a time ..."); this test does it through
// a real close and reopen.

const t0 = Date.UTC(2026, 0, 3);
const id = 1 as WebhookId;
const webhook: Webhook = {
  id,
  url: 'https://hooks.example.com/1',
  events: ['*'],
  description: '',
  active: true,
  secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
  lastDeliveredSeq: 0,
  failedAttempts: 0,
  nextAttemptAt: null,
  createdAt: t0,
  updatedAt: t0,
  version: 1,
};

describe('Embedded store: webhook delivery leases survive a restart', function () {
  this.timeout(60_000);
  let dir = '';
  tempDirEachTest((made) => (dir = made));

  /** Runs `use` on the store opened on the test's directory, then closes it. */
  const opened = async (use: (store: Awaited<ReturnType<typeof startedStore>>) => Promise<void>): Promise<void> => {
    const store = await startedStore(dir);
    try {
      await use(store);
    } finally {
      await store.close();
    }
  };

  it('a lease taken before a close holds after the reopen until it runs out; a lease given back stays given back', async () => {
    await opened(async (s) => {
      await s.webhooks.insert(webhook);
      expect(await s.webhooks.lease(id, 'worker-a', t0, t0 + 30_000)).to.equal(true);
    });
    await opened(async (s) => {
      expect(await s.webhooks.lease(id, 'worker-b', t0 + 1_000, t0 + 31_000), 'held by worker-a').to.equal(false);
      expect(await s.webhooks.lease(id, 'worker-a', t0 + 1_000, t0 + 40_000), "worker-a's own").to.equal(true);
      expect(await s.webhooks.lease(id, 'worker-b', t0 + 39_999, t0 + 50_000), 'until is kept').to.equal(false);
    });
    await opened(async (s) => {
      expect(await s.webhooks.lease(id, 'worker-b', t0 + 39_999, t0 + 50_000), 'until kept across the reopen').to.equal(
        false,
      );
      expect(await s.webhooks.lease(id, 'worker-b', t0 + 40_000, t0 + 50_000), 'run out').to.equal(true);
      await s.webhooks.release(id, 'worker-b');
    });
    await opened(async (s) => {
      expect(await s.webhooks.lease(id, 'worker-c', t0 + 41_000, t0 + 60_000), 'given back').to.equal(true);
    });
  });
});
