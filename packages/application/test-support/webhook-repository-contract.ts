import type { Webhook, WebhookId } from '@support/domain';
import { expect } from 'chai';
import type { DeliveryRecord } from '../src/index.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

const t0 = Date.UTC(2026, 0, 1);

export const aWebhook = (id: number, extra: Partial<Webhook> = {}): Webhook => ({
  id: id as WebhookId,
  url: `https://hooks.example.com/${String(id)}`,
  events: ['*'],
  description: '',
  active: true,
  secret: `whsec_${Buffer.alloc(32, id).toString('base64')}`,
  lastDeliveredSeq: 0,
  failedAttempts: 0,
  nextAttemptAt: null,
  createdAt: t0,
  updatedAt: t0,
  version: 1,
  ...extra,
});

const anAttempt = (webhookId: number, seq: number, attemptedAt: number): DeliveryRecord => ({
  webhookId: webhookId as WebhookId,
  seq,
  deliveryId: `msg_${String(webhookId)}_${String(seq)}`,
  attempt: 1,
  attemptedAt,
  status: 500,
  durationMs: 12,
  error: null,
  response: 'down for maintenance',
  nextAttemptAt: attemptedAt + 5000,
});

/** The WebhookRepository port's promises (see its doc comments), for any store. */
export function describeWebhookRepositoryContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: WebhookRepository contract`, () => {
    const store = freshStorePerTest(makeStore);
    const hooks = () => store().webhooks;

    it('keeps a webhook as written, lists by id and updates only the expected version', async () => {
      await hooks().insert(aWebhook(2, { events: ['ticket.created', 'message.created'], description: 'CRM' }));
      await hooks().insert(aWebhook(1));
      expect(await hooks().findById(2 as WebhookId)).to.deep.equal(
        aWebhook(2, { events: ['ticket.created', 'message.created'], description: 'CRM' }),
      );
      expect(await hooks().findById(3 as WebhookId)).to.equal(null);
      const page = await hooks().list(0, 10);
      expect(page.total).to.equal(2);
      expect(page.items.map((w) => w.id)).to.deep.equal([1, 2]);
      expect((await hooks().list(1, 10)).items.map((w) => w.id)).to.deep.equal([2]);
      const next = aWebhook(1, {
        url: 'https://other.example.com/x',
        version: 2,
        lastDeliveredSeq: 7,
        nextAttemptAt: t0 + 5000,
        failedAttempts: 1,
      });
      expect(await hooks().update(next, 2)).to.equal('version_mismatch');
      expect(await hooks().update(next, 1)).to.equal('ok');
      expect(await hooks().findById(1 as WebhookId)).to.deep.equal(next);
    });

    it('deletes a webhook and its delivery log', async () => {
      await hooks().insert(aWebhook(1));
      await hooks().recordDelivery(anAttempt(1, 1, t0), 10);
      expect(await hooks().delete(1 as WebhookId)).to.equal(true);
      expect(await hooks().delete(1 as WebhookId)).to.equal(false);
      expect(await hooks().findById(1 as WebhookId)).to.equal(null);
      expect(await hooks().deliveries(1 as WebhookId, 10)).to.deep.equal([]);
    });

    it('finds the active webhooks due at an instant, by id, up to a limit', async () => {
      await hooks().insert(aWebhook(1));
      await hooks().insert(aWebhook(2, { active: false }));
      await hooks().insert(aWebhook(3, { nextAttemptAt: t0 + 1000, failedAttempts: 1 }));
      await hooks().insert(aWebhook(4, { nextAttemptAt: t0 - 1, failedAttempts: 2 }));
      expect((await hooks().due(t0, 10)).map((w) => w.id)).to.deep.equal([1, 4]);
      expect((await hooks().due(t0 + 1000, 10)).map((w) => w.id)).to.deep.equal([1, 3, 4]);
      expect((await hooks().due(t0 + 1000, 2)).map((w) => w.id)).to.deep.equal([1, 3]);
    });

    it('leases a webhook to one owner at a time until the lease runs out', async () => {
      await hooks().insert(aWebhook(1));
      const now = Date.now();
      expect(await hooks().lease(1 as WebhookId, 'a', now, now + 1000)).to.equal(true);
      expect(await hooks().lease(1 as WebhookId, 'b', now + 999, now + 2000)).to.equal(false);
      expect(await hooks().lease(1 as WebhookId, 'a', now + 500, now + 1500)).to.equal(true);
      expect(await hooks().lease(1 as WebhookId, 'b', now + 1499, now + 2500)).to.equal(false);
      expect(await hooks().lease(1 as WebhookId, 'b', now + 1500, now + 2500)).to.equal(true);
      await hooks().release(1 as WebhookId, 'a');
      expect(await hooks().lease(1 as WebhookId, 'a', now + 1600, now + 2600)).to.equal(false);
      await hooks().release(1 as WebhookId, 'b');
      expect(await hooks().lease(1 as WebhookId, 'a', now + 1600, now + 2600)).to.equal(true);
      expect(await hooks().lease(9 as WebhookId, 'a', now, now + 1000)).to.equal(false);
    });

    it('is atomic: of 10 concurrent claimants of a free lease exactly one wins', async () => {
      await hooks().insert(aWebhook(1));
      const now = Date.now();
      const won = await Promise.all(
        Array.from({ length: 10 }, (_, i) => hooks().lease(1 as WebhookId, `owner-${String(i)}`, now, now + 1000)),
      );
      expect(won.filter(Boolean)).to.have.length(1);
    });

    it('keeps the newest attempts of each webhook, newest first, trimmed to `keep`', async () => {
      await hooks().insert(aWebhook(1));
      await hooks().insert(aWebhook(2));
      for (let seq = 1; seq <= 5; seq++) await hooks().recordDelivery(anAttempt(1, seq, t0 + seq * 1000), 3);
      await hooks().recordDelivery(anAttempt(2, 1, t0), 3);
      const log = await hooks().deliveries(1 as WebhookId, 10);
      expect(log.map((r) => r.seq)).to.deep.equal([5, 4, 3]);
      expect(log[0]).to.deep.equal(anAttempt(1, 5, t0 + 5000));
      expect((await hooks().deliveries(1 as WebhookId, 2)).map((r) => r.seq)).to.deep.equal([5, 4]);
      expect((await hooks().deliveries(2 as WebhookId, 10)).map((r) => r.seq)).to.deep.equal([1]);
      await hooks().recordDelivery(anAttempt(9, 1, t0), 3);
      expect(await hooks().deliveries(9 as WebhookId, 10)).to.deep.equal([]);
    });
  });
}
