import { expect } from 'chai';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { Api } from '../support/harness.js';
import { eventually, startReceiver, type Received, type Receiver } from '../support/receiver.js';
import { obj, patchJson, type Json } from '../support/resources.js';
import { retrySeconds, webhookSuite } from '../support/webhook-suite.js';

// Webhooks (contract §7.4) over HTTPS, delivering to a real receiver on 127.0.0.1
// (WEBHOOK_ALLOW_PRIVATE=true). The retry schedule runs on the application's clock, which the
// tests move; the 10 s timeout is real time.

/** What the standardwebhooks library makes of a delivery with this secret (it throws when the signature does not hold). */
const verified = (secret: string, r: Received): unknown =>
  new StandardWebhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

const seqOf = (r: Received): number => r.json.seq as number;

describe('HTTP: webhooks', () => {
  const { w, create, read, deliveries, feed, ticket } = webhookSuite();
  let api: Api, admin: string, receiver: Receiver;
  beforeEach(() => {
    ({ api, admin, receiver } = w);
  });

  describe('deliveries', () => {
    it('POSTs each change as the feed shows it, with the Standard Webhooks headers; the standardwebhooks library verifies it with the secret', async () => {
      const w = await create({ url: receiver.url, events: ['*'] });
      const t = await ticket('Signed and delivered');
      const [r] = await receiver.waitFor(1);
      const event = (await feed(w.last_delivered_seq as number))[0];
      expect(event).to.include({ type: 'ticket.created' });
      expect((event?.resource as Json).id).to.equal(t.id);
      expect(r!.headers['content-type']).to.equal('application/json');
      expect(r!.headers['webhook-id']).to.equal(`msg_${w.id as number}_${event?.seq as number}`);
      expect(r!.headers['webhook-timestamp']).to.equal(String(Math.floor(api.clock.now() / 1000)));
      expect(r!.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(verified(w.secret as string, r!)).to.deep.equal(event);
      expect(() => verified(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, r!)).to.throw();

      await eventually(
        'the cursor to move past the delivered event',
        async () => (await read(w.id)).last_delivered_seq === event?.seq,
      );
      const log = await deliveries(w.id);
      expect(log).to.have.length(1);
      expect(log[0]).to.include({
        seq: event?.seq,
        webhook_id: r!.headers['webhook-id'],
        attempt: 1,
        status: 200,
        error: null,
        next_attempt_at: null,
        response: 'answered 200',
      });
    });

    it('sends only the types a webhook subscribed to; ["*"] gets every event; each in seq order', async () => {
      const every = await startReceiver();
      try {
        const some = await create({ url: receiver.url, events: ['ticket.created', 'message.created'] });
        const all = await create({ url: every.url, events: ['*'] });
        const from = all.last_delivered_seq as number;
        const t = await ticket('Filtered');
        expect((await patchJson(api, `/v1/tickets/${t.id as number}`, { priority: 'low' }, admin)).status).to.equal(
          200,
        );
        expect(
          (await api.post(`/v1/tickets/${t.id as number}/messages`, { body: 'Hello' }, { token: admin })).status,
        ).to.equal(201);
        expect((await api.post('/v1/groups', { name: 'Filter fans' }, { token: admin })).status).to.equal(201);
        const appended = await feed(from);
        const head = appended.at(-1)?.seq as number;

        const got = await every.waitFor(appended.length);
        expect(got.map((r) => r.json)).to.deep.equal(appended);
        // The narrow webhook moves past what it did not subscribe to.
        await eventually(
          'the filtered webhook to reach the head of the feed',
          async () => (await read(some.id)).last_delivered_seq === head,
        );
        expect(receiver.received.map((r) => [r.json.type, seqOf(r)])).to.deep.equal(
          appended
            .filter((e) => e.type === 'ticket.created' || e.type === 'message.created')
            .map((e) => [e.type, e.seq]),
        );
        expect(every.received).to.have.length(appended.length);
      } finally {
        await every.close();
      }
    });

    it('keeps each webhook in seq order under many quick changes', async () => {
      receiver.behave({ status: 200, delayMs: 15 });
      const w = await create({ url: receiver.url, events: ['ticket.created', 'ticket.updated'] });
      const tickets = await Promise.all(Array.from({ length: 4 }, (_, i) => ticket(`Quick ${i}`)));
      await Promise.all(
        tickets.map((t, i) => patchJson(api, `/v1/tickets/${t.id as number}`, { summary: `changed ${i}` }, admin)),
      );
      const expected = (await feed(w.last_delivered_seq as number)).map((e) => e.seq);
      expect(expected).to.have.length(8);
      const got = await receiver.waitFor(8);
      expect(got.map(seqOf)).to.deep.equal(expected);
      expect(new Set(got.map((r) => r.headers['webhook-id'])).size).to.equal(8);
    });

    it('retries a failing receiver on the WEBHOOK_RETRY_S schedule with the same webhook-id, then switches the webhook off; active: true resumes it', async () => {
      receiver.behave({ status: 500 });
      const w = await create({ url: receiver.url, events: ['ticket.created'] });
      await ticket('Will fail');
      const [first] = await receiver.waitFor(1);
      const id = first!.headers['webhook-id'];
      await eventually('the first failure to be logged', async () => (await deliveries(w.id)).length === 1);
      // Not before its time: the next attempt waits for the clock.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(receiver.received).to.have.length(1);

      api.clock.advance(retrySeconds[0]! * 1000);
      const second = (await receiver.waitFor(2))[1]!;
      expect(second.headers['webhook-id']).to.equal(id);
      expect(second.body).to.equal(first!.body);
      await eventually('the second failure to be logged', async () => (await deliveries(w.id)).length === 2);
      api.clock.advance(retrySeconds[1]! * 1000 - 1);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(receiver.received).to.have.length(2);
      api.clock.advance(1);
      const third = (await receiver.waitFor(3))[2]!;
      expect(third.headers['webhook-id']).to.equal(id);
      await eventually('the webhook to be switched off', async () => (await read(w.id)).active === false);

      const log = await deliveries(w.id);
      expect(log.map((d) => [d.attempt, d.status, d.webhook_id, d.error])).to.deep.equal([
        [3, 500, id, 'the receiver answered 500'],
        [2, 500, id, 'the receiver answered 500'],
        [1, 500, id, 'the receiver answered 500'],
      ]);
      const at = (d: Json | undefined, field: string): number | null =>
        d?.[field] === null ? null : Date.parse(d?.[field] as string);
      expect(at(log[2], 'next_attempt_at')).to.equal(at(log[2], 'attempted_at')! + retrySeconds[0]! * 1000);
      expect(at(log[1], 'next_attempt_at')).to.equal(at(log[1], 'attempted_at')! + retrySeconds[1]! * 1000);
      expect(log[0]?.next_attempt_at).to.equal(null);

      receiver.behave({ status: 200 });
      expect(obj(await patchJson(api, `/v1/webhooks/${w.id as number}`, { active: true }, admin))).to.include({
        active: true,
      });
      const fourth = (await receiver.waitFor(4))[3]!;
      expect(fourth.headers['webhook-id']).to.equal(id);
      await eventually(
        'the cursor to move past the event',
        async () => (await read(w.id)).last_delivered_seq === seqOf(fourth),
      );
      expect((await deliveries(w.id))[0]).to.include({ attempt: 1, status: 200, error: null });
    });

    it('counts a connection reset as a failure, retried on schedule', async () => {
      receiver.behave('reset');
      const w = await create({ url: receiver.url, events: ['ticket.created'] });
      await ticket('Reset me');
      await eventually('the reset attempt to be logged', async () => (await deliveries(w.id)).length === 1);
      const [failed] = await deliveries(w.id);
      expect(failed).to.include({ status: null, attempt: 1 });
      expect(failed?.error).to.match(/ECONNRESET|socket hang up/);
      expect(Date.parse(failed?.next_attempt_at as string)).to.equal(
        Date.parse(failed?.attempted_at as string) + retrySeconds[0]! * 1000,
      );
      receiver.behave({ status: 200 });
      api.clock.advance(retrySeconds[0]! * 1000);
      await eventually('the retry to succeed', async () => (await deliveries(w.id))[0]?.status === 200);
      expect(receiver.received.map((r) => r.headers['webhook-id'])).to.deep.equal([
        failed?.webhook_id,
        failed?.webhook_id,
      ]);
    });

    it('counts a receiver that does not answer within 10 s as a failure; meanwhile other webhooks are served', async function () {
      this.timeout(20_000);
      receiver.behave('hang');
      const w = await create({ url: receiver.url, events: ['ticket.created'] });
      const healthy = await startReceiver();
      try {
        await create({ url: healthy.url, events: ['ticket.created'] });
        await ticket('Hang on');
        await receiver.waitFor(1);
        // The hanging receiver holds up only its own webhook: the other hears of every change at once.
        await ticket('Still flowing');
        const served = Date.now();
        await healthy.waitFor(2, 3_000);
        expect(Date.now() - served).to.be.below(3_000);
      } finally {
        await healthy.close();
      }
      const started = Date.now();
      await eventually('the hanging attempt to time out', async () => (await deliveries(w.id)).length === 1, 12_000);
      expect(Date.now() - started).to.be.greaterThan(8_000);
      const [failed] = await deliveries(w.id);
      expect(failed).to.include({ status: null, error: 'no answer within 10 s' });
      expect(failed?.duration_ms).to.be.within(9_900, 11_000);
      expect(failed?.next_attempt_at).to.be.a('string');
    });

    it('replays from after: the same events again, with the same webhook-ids', async () => {
      const w = await create({ url: receiver.url, events: ['*'] });
      const from = w.last_delivered_seq as number;
      await ticket('Replay one');
      await ticket('Replay two');
      const first = await receiver.waitFor(2);
      await eventually('both to be delivered', async () => (await read(w.id)).last_delivered_seq === from + 2);

      const replayed = await api.post(`/v1/webhooks/${w.id as number}/replay`, { after: from }, { token: admin });
      expect(replayed.status, replayed.text).to.equal(200);
      expect(obj(replayed)).to.include({ last_delivered_seq: from, active: true });
      expect(replayed.text).not.to.include('whsec_');
      const again = (await receiver.waitFor(4)).slice(2);
      expect(again.map((r) => [r.headers['webhook-id'], r.body])).to.deep.equal(
        first.map((r) => [r.headers['webhook-id'], r.body]),
      );
      await eventually(
        'the cursor to come back to the head',
        async () => (await read(w.id)).last_delivered_seq === from + 2,
      );
    });

    it('rotate-secret answers a new secret, once; later deliveries are signed with it, and with the old one beside it for 24 hours', async () => {
      const w = await create({ url: receiver.url, events: ['ticket.created'] });
      const rotated = await api.post(`/v1/webhooks/${w.id as number}/rotate-secret`, undefined, { token: admin });
      expect(rotated.status, rotated.text).to.equal(200);
      expect([rotated.header('cache-control'), rotated.header('etag')]).to.deep.equal(['no-store', undefined]);
      const secret = obj(rotated).secret as string;
      expect(secret)
        .to.match(/^whsec_/)
        .and.not.equal(w.secret);
      expect((await api.get(`/v1/webhooks/${w.id as number}`, { token: admin })).text).not.to.include(secret);

      await ticket('New secret');
      const [r] = await receiver.waitFor(1);
      expect(verified(secret, r!)).to.deep.equal(r!.json);
      // Contract §11: the old secret keeps signing for 24 hours (v1,<new> v1,<old>); after that
      // only the new one (domain test: signingSecrets).
      expect(verified(w.secret as string, r!)).to.deep.equal(r!.json);
      expect(String(r!.headers['webhook-signature']).split(' ')).to.have.length(2);
    });
  });
});
