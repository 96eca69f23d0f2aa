import type { WebhookId } from '@support/domain';
import { expect } from 'chai';
import { decoded, rightOf, world, type World } from './support/world.js';

// One delivery step, in detail: which answers count as delivered, what a step skips, when a
// webhook has nothing to do, and the lease that keeps a second process off it meanwhile.

const hook = async (w: World, events: string[]) =>
  rightOf(await w.app.webhooks.create(w.admin, decoded({ url: 'https://hooks.example.com/in', events } as never)));

describe('webhook delivery steps', () => {
  it('a 2xx is delivered; 1xx, 3xx, a 4xx or no answer is a failure, logged with why', async () => {
    for (const [status, delivered] of [
      [200, true],
      [299, true],
      [199, false],
      [300, false],
      [404, false],
      [null, false],
    ] as const) {
      const w = await world();
      const h = await hook(w, ['group.created']);
      w.sender.answer = () => status;
      rightOf(await w.app.groups.create(w.admin, decoded({ name: 'G' })));
      expect(await w.app.webhooks.deliverNext(h.id)).to.equal(true);
      const after = rightOf(await w.app.webhooks.get(w.admin, h.id));
      expect(after.failedAttempts, String(status)).to.equal(delivered ? 0 : 1);
      const [log] = rightOf(
        await w.app.webhooks.deliveries(w.admin, h.id, { _tag: 'Right', right: { page: 1, perPage: 10 } }),
      ).items;
      expect(log?.error ?? null, String(status)).to.equal(
        delivered ? null : status === null ? 'no answer within 10 s' : `the receiver answered ${String(status)}`,
      );
      expect(log?.attempt).to.equal(1);
    }
  });

  it('passes over the events it did not subscribe to in one step, then has nothing to do', async () => {
    const w = await world();
    const h = await hook(w, ['ticket.created']);
    for (const name of ['A', 'B']) rightOf(await w.app.groups.create(w.admin, decoded({ name })));
    const { newest } = await w.ports.events.bounds();
    expect(await w.app.webhooks.due()).to.deep.equal([h.id]);
    expect(await w.app.webhooks.deliverNext(h.id)).to.equal(true);
    expect(w.sender.sent).to.deep.equal([]);
    expect(rightOf(await w.app.webhooks.get(w.admin, h.id)).lastDeliveredSeq).to.equal(newest);
    expect(await w.app.webhooks.due(), 'at the head: not due').to.deep.equal([]);
    expect(await w.app.webhooks.deliverNext(h.id), 'no event after it').to.equal(false);
  });

  it('does nothing for a webhook that is gone, switched off, or waiting for its next retry', async () => {
    const w = await world();
    expect(await w.app.webhooks.deliverNext(999 as WebhookId)).to.equal(false);
    const off = await hook(w, ['group.created']);
    rightOf(await w.app.webhooks.patch(w.admin, off.id, decoded({ active: false })));
    const waiting = await hook(w, ['group.created']);
    w.sender.answer = () => 500;
    rightOf(await w.app.groups.create(w.admin, decoded({ name: 'G' })));
    expect(await w.app.webhooks.deliverNext(waiting.id)).to.equal(true);
    const retryAt = rightOf(await w.app.webhooks.get(w.admin, waiting.id)).nextAttemptAt;
    expect(retryAt).to.equal(w.clock.now() + 5_000);
    expect(await w.app.webhooks.deliverNext(waiting.id), 'before its retry').to.equal(false);
    expect(await w.app.webhooks.deliverNext(off.id), 'switched off').to.equal(false);
    expect(w.sender.sent).to.have.length(1);
    w.clock.advance(5_000);
    expect(await w.app.webhooks.deliverNext(waiting.id), 'at its retry').to.equal(true);
    expect(w.sender.sent).to.have.length(2);
  });

  it('holds the lease for leaseSeconds while it delivers, and lets go after', async () => {
    const w = await world();
    const h = await hook(w, ['group.created']);
    rightOf(await w.app.groups.create(w.admin, decoded({ name: 'G' })));
    const tries: boolean[] = [];
    const lease = (at: number): Promise<boolean> => w.ports.webhooks.lease(h.id, 'another process', at, at + 1_000);
    const send = w.sender.send.bind(w.sender);
    w.sender.send = async (target, deliveryId, event, timestamp, fields) => {
      tries.push(await lease(w.clock.now()), await lease(w.clock.now() + 29_999), await lease(w.clock.now() + 30_001));
      await w.ports.webhooks.release(h.id, 'another process');
      return send(target, deliveryId, event, timestamp, fields);
    };
    expect(await w.app.webhooks.deliverNext(h.id)).to.equal(true);
    expect(tries, 'held until 30 s on').to.deep.equal([false, false, true]);
    expect(await lease(w.clock.now()), 'released').to.equal(true);
  });
});
