import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { expectError } from '../support/oauth.js';
import type { Receiver } from '../support/receiver.js';
import { arr, fieldErrors, linkRels, obj, patchJson, pathOf } from '../support/resources.js';
import { webhookSuite } from '../support/webhook-suite.js';
import type { Person } from '../support/casts.js';

// Webhooks (contract §7.4) over HTTPS, delivering to a real receiver on 127.0.0.1
// (WEBHOOK_ALLOW_PRIVATE=true). The retry schedule runs on the application's clock, which the
// tests move; the 10 s timeout is real time.

describe('HTTP: webhooks', () => {
  const { w, create, read, newest } = webhookSuite();
  let api: Api, admin: string, customer: Person, receiver: Receiver;
  beforeEach(() => {
    ({ api, admin, customer, receiver } = w);
  });

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
      // Probed: the one answer that shows the secret was "private, no-cache" (a browser may store
      // it); it is no-store, as a new personal token's is, with no ETag of a body no GET answers.
      expect([a.header('cache-control'), a.header('pragma'), a.header('etag')]).to.deep.equal([
        'no-store',
        'no-cache',
        undefined,
      ]);
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
});

describe('HTTP: webhooks without WEBHOOK_ALLOW_PRIVATE (the SSRF guard)', () => {
  let admin: string;
  const api = suiteApi();
  before(async () => {
    admin = await api.adminToken();
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
