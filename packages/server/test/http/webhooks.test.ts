import { expect } from 'chai';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { startApi, type Api } from '../support/harness.js';
import { expectError } from '../support/oauth.js';
import { eventually, startReceiver, type Received, type Receiver } from '../support/receiver.js';
import { arr, createTicket, fieldErrors, linkRels, obj, patchJson, pathOf, type Json } from '../support/resources.js';

// Webhooks (contract §7.4) over HTTPS, delivering to a real receiver on 127.0.0.1
// (WEBHOOK_ALLOW_PRIVATE=true). The retry schedule runs on the application's clock, which the
// tests move; the 10 s timeout is real time.

const retrySeconds = [5, 30];

/** What the standardwebhooks library makes of a delivery with this secret (it throws when the signature does not hold). */
const verified = (secret: string, r: Received): unknown =>
  new StandardWebhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

const seqOf = (r: Received): number => r.json.seq as number;

describe('HTTP: webhooks', () => {
  let api: Api;
  let admin: string;
  let customer: { id: number; token: string };
  let receiver: Receiver;

  before(async () => {
    api = await startApi({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_S: retrySeconds.join(',') });
    // Receivers check webhook-timestamp against their own clock.
    api.clock.set(Date.now());
    admin = await api.adminToken();
    customer = await api.userWithToken('customer', 'Hugo Hook');
  });
  after(async () => {
    await api.close();
  });
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    // Every test's webhooks go with it, so no later test (moving the clock) wakes their retries.
    for (const w of arr(await api.get('/v1/webhooks?per_page=100', { token: admin }))) {
      await api.request('DELETE', `/v1/webhooks/${w.id as number}`, { token: admin });
    }
    await receiver.close();
  });

  const create = async (body: Json): Promise<Json> => {
    const a = await api.post('/v1/webhooks', body, { token: admin });
    expect(a.status, a.text).to.equal(201);
    return obj(a);
  };
  const read = async (id: unknown): Promise<Json> => {
    const a = await api.get(`/v1/webhooks/${id as number}`, { token: admin });
    expect(a.status, a.text).to.equal(200);
    return obj(a);
  };
  const deliveries = async (id: unknown): Promise<Json[]> => {
    const a = await api.get(`/v1/webhooks/${id as number}/deliveries`, { token: admin });
    expect(a.status, a.text).to.equal(200);
    return arr(a);
  };
  /** The feed after `after`, as GET /v1/events answers it. */
  const feed = async (after: number): Promise<Json[]> =>
    arr(await api.get(`/v1/events?after=${after}&per_page=100`, { token: admin }));
  const newest = async (): Promise<number> => {
    let after = 0;
    for (let page = await feed(after); page.length > 0; page = await feed(after)) after = page.at(-1)?.seq as number;
    return after;
  };
  const ticket = (subject: string): Promise<Json> => createTicket(api, admin, { subject, customer_id: customer.id });

  describe('the admin resource', () => {
    it('creates one: 201, Location, the secret shown once (whsec_ + 32 bytes), starting at the head of the feed', async () => {
      const head = await newest();
      const a = await api.post(
        '/v1/webhooks',
        { url: receiver.url, events: ['ticket.created'], description: 'CRM sync' },
        { token: admin },
      );
      expect(a.status, a.text).to.equal(201);
      const w = obj(a);
      expect(Object.keys(w)).to.deep.equal([
        'id',
        'url',
        'events',
        'description',
        'active',
        'last_delivered_seq',
        'created_at',
        'updated_at',
        'secret',
      ]);
      expect(w).to.include({ url: receiver.url, description: 'CRM sync', active: true, last_delivered_seq: head });
      expect(w.events).to.deep.equal(['ticket.created']);
      expect(a.header('location')).to.equal(`${api.origin}/v1/webhooks/${w.id as number}`);
      const secret = w.secret as string;
      expect(secret).to.match(/^whsec_/);
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).to.have.length(32);

      const { secret: _shownOnce, ...plain } = w;
      const one = await api.get(pathOf(a.header('location')), { token: admin });
      expect(one.json).to.deep.equal(plain);
      const list = await api.get('/v1/webhooks', { token: admin });
      expect(arr(list)).to.deep.equal([plain]);
      expect(list.header('x-total-count')).to.equal('1');
      expect(linkRels(list.header('link')).last).to.equal(`${api.origin}/v1/webhooks?page=1`);
      const patched = await patchJson(api, pathOf(a.header('location')), { description: null }, admin);
      expect(obj(patched)).to.include({ description: '' });
      for (const answer of [one, list, patched])
        expect(answer.text).not.to.include(secret).and.not.to.include('whsec_');

      const other = await create({ url: receiver.url, events: ['*'] });
      expect(other.secret).not.to.equal(secret);
      expect(other).to.include({ description: '', active: true });
    });

    it('answers 304 to its ETag, refuses a stale If-Match with 412, and answers DELETE with the last representation', async () => {
      const w = await create({ url: receiver.url, events: ['*'] });
      const path = `/v1/webhooks/${w.id as number}`;
      const first = await api.get(path, { token: admin });
      const etag = first.header('etag') ?? '';
      expect((await api.get(path, { token: admin, headers: { 'If-None-Match': etag } })).status).to.equal(304);
      api.clock.advance(1000);
      const changed = await patchJson(api, path, { events: ['ticket.updated', 'ticket.created'] }, admin, {
        'If-Match': etag,
      });
      expect(changed.status, changed.text).to.equal(200);
      expect(obj(changed).events).to.deep.equal(['ticket.updated', 'ticket.created']);
      expectError(await patchJson(api, path, { active: false }, admin, { 'If-Match': etag }), 412, 41201);
      expectError(await api.request('DELETE', path, { token: admin, headers: { 'If-Match': etag } }), 412, 41201);
      const deleted = await api.request('DELETE', path, {
        token: admin,
        headers: { 'If-Match': changed.header('etag') ?? '' },
      });
      expect(deleted.status, deleted.text).to.equal(200);
      expect(deleted.json).to.deep.equal(changed.json);
      expectError(await api.get(path, { token: admin }), 404, 40402);
      expectError(await api.get('/v1/webhooks/abc', { token: admin }), 404, 40401);
    });

    it('refuses server-set and unknown fields and bad values, every one at once (422)', async () => {
      const refused = await api.post(
        '/v1/webhooks',
        {
          id: 9,
          secret: 'whsec_x',
          last_delivered_seq: 3,
          created_at: 'now',
          url: 'ftp://example.com/hook',
          events: ['ticket.exploded'],
          colour: 'red',
        },
        { token: admin },
      );
      expect(fieldErrors(refused).map((e) => [e.field, e.code])).to.deep.equal([
        ['colour', 42202],
        ['created_at', 42203],
        ['events.0', 42206],
        ['id', 42203],
        ['last_delivered_seq', 42203],
        ['secret', 42203],
        ['url', 42206],
      ]);
      expect(
        fieldErrors(await api.post('/v1/webhooks', {}, { token: admin })).map((e) => [e.field, e.code]),
      ).to.deep.equal([
        ['events', 42201],
        ['url', 42201],
      ]);
      const w = await create({ url: receiver.url, events: ['*'] });
      const path = `/v1/webhooks/${w.id as number}`;
      expect(
        fieldErrors(
          await patchJson(api, path, { url: null, events: null, active: 'yes', secret: 'whsec_x' }, admin),
        ).map((e) => [e.field, e.code]),
      ).to.deep.equal([
        ['active', 42204],
        ['events', 42201],
        ['secret', 42203],
        ['url', 42201],
      ]);
      const replay = (body: unknown): Promise<ReturnType<typeof fieldErrors>> =>
        api.post(`${path}/replay`, body, { token: admin }).then(fieldErrors);
      expect((await replay({ after: -1, url: receiver.url })).map((e) => [e.field, e.code])).to.deep.equal([
        ['after', 42204],
        ['url', 42203],
      ]);
      expect((await replay({ after: (await newest()) + 1 })).map((e) => [e.field, e.code])).to.deep.equal([
        ['after', 42206],
      ]);
    });

    it('is for admins only: agents and customers are 403 on every operation', async () => {
      const w = await create({ url: receiver.url, events: ['*'] });
      const agent = await api.userWithToken('agent');
      const path = `/v1/webhooks/${w.id as number}`;
      for (const token of [agent.token, customer.token]) {
        expectError(await api.get('/v1/webhooks', { token }), 403, 40301);
        expectError(await api.post('/v1/webhooks', { url: receiver.url, events: ['*'] }, { token }), 403, 40301);
        expectError(await api.get(path, { token }), 403, 40301);
        expectError(await patchJson(api, path, { description: 'mine now' }, token), 403, 40301);
        expectError(await api.request('DELETE', path, { token }), 403, 40301);
        expectError(await api.post(`${path}/rotate-secret`, undefined, { token }), 403, 40301);
        expectError(await api.post(`${path}/replay`, { after: 0 }, { token }), 403, 40301);
        expectError(await api.get(`${path}/deliveries`, { token }), 403, 40301);
      }
      expect(await read(w.id)).to.include({ description: '' });
    });
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

    it('rotate-secret answers a new secret, once; later deliveries are signed with it and no longer with the old one', async () => {
      const w = await create({ url: receiver.url, events: ['ticket.created'] });
      const rotated = await api.post(`/v1/webhooks/${w.id as number}/rotate-secret`, undefined, { token: admin });
      expect(rotated.status, rotated.text).to.equal(200);
      const secret = obj(rotated).secret as string;
      expect(secret)
        .to.match(/^whsec_/)
        .and.not.equal(w.secret);
      expect((await api.get(`/v1/webhooks/${w.id as number}`, { token: admin })).text).not.to.include(secret);

      await ticket('New secret');
      const [r] = await receiver.waitFor(1);
      expect(verified(secret, r!)).to.deep.equal(r!.json);
      expect(() => verified(w.secret as string, r!)).to.throw();
    });
  });
});

describe('HTTP: webhooks without WEBHOOK_ALLOW_PRIVATE (the SSRF guard)', () => {
  let api: Api;
  let admin: string;
  before(async () => {
    api = await startApi();
    admin = await api.adminToken();
  });
  after(async () => {
    await api.close();
  });

  it('refuses http:// and receivers on loopback or private addresses with 422 on url', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://93.184.216.34/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.0.0.8/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest',
    ]) {
      const errors = fieldErrors(await api.post('/v1/webhooks', { url, events: ['*'] }, { token: admin }));
      expect(
        errors.map((e) => [e.field, e.code]),
        url,
      ).to.deep.equal([['url', 42206]]);
      // The refusal names the switch a walk-through on one machine needs (issue 20).
      expect(errors[0]!.message, url).to.include('WEBHOOK_ALLOW_PRIVATE=true');
    }
    // A public address is taken (nothing is sent to it: no change happens while it exists),
    // and it cannot be pointed inwards afterwards.
    const created = await api.post(
      '/v1/webhooks',
      { url: 'https://93.184.216.34/hook', events: ['*'] },
      { token: admin },
    );
    expect(created.status, created.text).to.equal(201);
    const path = pathOf(created.header('location'));
    expect(
      fieldErrors(await patchJson(api, path, { url: 'https://127.0.0.1/hook' }, admin)).map((e) => [e.field, e.code]),
    ).to.deep.equal([['url', 42206]]);
    expect((await api.request('DELETE', path, { token: admin })).status).to.equal(200);
  });
});
