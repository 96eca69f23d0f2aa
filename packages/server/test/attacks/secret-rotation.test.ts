import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reap } from '../server/child.js';
import { startTarget, type Target } from './attacker.js';

// The review found that rotate-secret had no overlap: the old secret stopped signing at once, so
// a receiver had to swap its secret at the very moment of the rotation or refuse deliveries.
// Now the old secret keeps signing for 24 hours beside the new one (contract §11): each
// delivery carries both signatures, "v1,<new> v1,<old>", as Standard Webhooks allows. The real
// process delivering to a receiver on this machine (WEBHOOK_ALLOW_PRIVATE=true).

interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

const signature = (secret: string, h: IncomingHttpHeaders, body: string): string =>
  `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${String(h['webhook-id'])}.${String(h['webhook-timestamp'])}.${body}`)
    .digest('base64')}`;

describe('attack: a rotated webhook secret stops signing at once (contract §11, over HTTPS)', function () {
  this.timeout(120_000);
  let target: Target;
  let receiver: Server;
  const received: Delivery[] = [];
  let waiting: (() => void) | null = null;

  before(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (s: string) => (body += s));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
        waiting?.();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    target = await startTarget({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  after(async () => {
    await reap(target.child);
    await new Promise((resolve) => receiver.close(resolve));
  });

  const nextDelivery = async (): Promise<Delivery> => {
    const count = received.length;
    const admin = await target.admin();
    const made = await target.send('POST', '/v1/tickets', {
      token: admin,
      body: { subject: 'ping', customer_id: 1 },
    });
    expect(made.status, made.text).to.equal(201);
    const deadline = Date.now() + 20_000;
    while (received.length === count) {
      if (Date.now() > deadline) throw new Error('no delivery within 20 s');
      await new Promise<void>((resolve) => {
        waiting = resolve;
        setTimeout(resolve, 250);
      });
    }
    return received[received.length - 1] as Delivery;
  };

  it('after rotate-secret, deliveries carry the new and the old signature', async () => {
    const admin = await target.admin();
    const port = (receiver.address() as AddressInfo).port;
    const hook = await target.send('POST', '/v1/webhooks', {
      token: admin,
      body: { url: `http://127.0.0.1:${port}/hook`, events: ['ticket.created'] },
    });
    expect(hook.status, hook.text).to.equal(201);
    const { id, secret: old } = hook.json as { id: number; secret: string };
    const before = await nextDelivery();
    expect(before.headers['webhook-signature']).to.equal(signature(old, before.headers, before.body));
    const rotated = await target.send('POST', `/v1/webhooks/${id}/rotate-secret`, { token: admin });
    expect(rotated.status, rotated.text).to.equal(200);
    const fresh = (rotated.json as { secret: string }).secret;
    expect(fresh).not.to.equal(old);
    const after = await nextDelivery();
    expect(after.headers['webhook-signature']).to.equal(
      `${signature(fresh, after.headers, after.body)} ${signature(old, after.headers, after.body)}`,
    );
    const shown = await target.send('GET', `/v1/webhooks/${id}`, { token: admin });
    expect(shown.text, 'no secret is ever read back').not.to.contain('whsec_');
  });
});
