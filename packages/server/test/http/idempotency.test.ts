import { expect } from 'chai';
import { request as httpsRequest } from 'node:https';
import { suiteApi } from '../support/suite-api.js';
import { jsonpArgument, type EnvelopeBody } from '../support/http-conventions.js';
import { arr, obj, type Json } from '../support/resources.js';

// Contract §7.1: a POST with an Idempotency-Key runs once; repeats get its answer again.

describe('HTTP: Idempotency-Key on POST', () => {
  let admin: string;
  let agent: { id: number; token: string };
  let customer: { id: number; token: string };
  let keyNo = 0;
  const freshKey = () => `key-${Date.now()}-${(keyNo += 1)}`;

  const api = suiteApi({ STORE: 'memory', RATE_LIMIT: '100000' });
  before(async () => {
    admin = await api.adminToken();
    agent = await api.userWithToken('agent', 'Retrying Agent');
    customer = await api.userWithToken('customer', 'Retrying Customer');
  });

  const post = (path: string, body: unknown, token: string, key: string, headers: Record<string, string> = {}) =>
    api.post(path, body, { token, headers: { 'Idempotency-Key': key, ...headers } });
  const ticketsWithSubject = async (subject: string): Promise<Json[]> =>
    arr(await api.get(`/v1/tickets?per_page=100&q=${encodeURIComponent(subject)}`, { token: admin })).filter(
      (t) => t.subject === subject,
    );

  it('answers a repeat with the first answer byte for byte, marked Idempotent-Replayed, and creates one ticket', async () => {
    const key = freshKey();
    const body = { subject: 'Replay me alpha', customer_id: customer.id };
    const first = await post('/v1/tickets', body, agent.token, key);
    expect(first.status, first.text).to.equal(201);
    expect(first.header('idempotent-replayed')).to.equal(undefined);
    const again = await post('/v1/tickets', body, agent.token, key, { 'Accept-Encoding': 'gzip' });
    expect(again.status).to.equal(201);
    expect(again.header('idempotent-replayed')).to.equal('true');
    expect(again.text).to.equal(first.text);
    for (const h of ['location', 'etag', 'content-type']) expect(again.header(h), h).to.equal(first.header(h));
    expect(again.header('content-encoding')).to.equal('gzip');
    expect(await ticketsWithSubject('Replay me alpha')).to.have.length(1);
  });

  it('creates one ticket when the POST is retried after the connection dropped mid-response', async () => {
    const key = freshKey();
    const payload = JSON.stringify({ subject: 'Dropped bravo', customer_id: customer.id });
    await new Promise<void>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: api.server.port,
          method: 'POST',
          path: '/v1/tickets',
          ca: api.server.cert,
          servername: 'localhost',
          agent: false,
          headers: {
            Authorization: `Bearer ${agent.token}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': key,
            'Content-Length': String(Buffer.byteLength(payload)),
          },
        },
        (res) => {
          // The client gives up as the answer starts to arrive: it never reads the body.
          res.destroy();
          resolve();
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
    let retry = await api.post('/v1/tickets', payload, {
      token: agent.token,
      headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
    });
    for (let i = 0; retry.status === 409 && i < 20; i++) {
      await new Promise((r) => setTimeout(r, 50));
      retry = await api.post('/v1/tickets', payload, {
        token: agent.token,
        headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
      });
    }
    expect(retry.status, retry.text).to.equal(201);
    expect(retry.header('idempotent-replayed')).to.equal('true');
    const found = await ticketsWithSubject('Dropped bravo');
    expect(found).to.have.length(1);
    expect(found[0]?.id).to.equal(obj(retry).id);
  });

  it('of 20 concurrent POSTs with one key creates one ticket: one 201 that ran, the rest 409 (Retry-After: 1) or replays', async () => {
    const key = freshKey();
    const body = { subject: 'Stampede charlie', customer_id: customer.id };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('/v1/tickets', body, agent.token, key)));
    const ran = answers.filter((a) => a.status === 201 && a.header('idempotent-replayed') === undefined);
    const replays = answers.filter((a) => a.status === 201 && a.header('idempotent-replayed') === 'true');
    const busy = answers.filter((a) => a.status === 409);
    expect(ran).to.have.length(1);
    expect(replays.length + busy.length).to.equal(19);
    for (const a of busy) {
      expect(obj(a).code).to.equal(40902);
      expect(a.header('retry-after')).to.equal('1');
    }
    for (const a of replays) expect(a.text).to.equal(ran[0]?.text);
    expect(await ticketsWithSubject('Stampede charlie')).to.have.length(1);
  });

  it('replays the original 201 body after the ticket has changed', async () => {
    const key = freshKey();
    const body = { subject: 'Original delta', customer_id: customer.id };
    const first = await post('/v1/tickets', body, agent.token, key);
    const id = obj(first).id as number;
    const changed = await api.request('PATCH', `/v1/tickets/${id}`, {
      token: agent.token,
      body: { subject: 'Changed delta', priority: 'high' },
    });
    expect(changed.status, changed.text).to.equal(200);
    const again = await post('/v1/tickets', body, agent.token, key);
    expect(again.status).to.equal(201);
    expect(again.text).to.equal(first.text);
    expect(obj(again).subject).to.equal('Original delta');
    expect(obj(await api.get(`/v1/tickets/${id}`, { token: agent.token })).subject).to.equal('Changed delta');
  });

  it('keeps the keys of two users apart: the same key creates a ticket for each', async () => {
    const key = freshKey();
    const a = await post('/v1/tickets', { subject: 'Shared key echo' }, customer.token, key);
    const b = await post('/v1/tickets', { subject: 'Shared key echo', customer_id: customer.id }, agent.token, key);
    expect([a.status, b.status]).to.deep.equal([201, 201]);
    expect(b.header('idempotent-replayed')).to.equal(undefined);
    expect(obj(a).id).to.not.equal(obj(b).id);
    expect(await ticketsWithSubject('Shared key echo')).to.have.length(2);
  });

  it('refuses the same key with another body or path: 422 code 42250, nothing created', async () => {
    const key = freshKey();
    await post('/v1/tickets', { subject: 'Foxtrot one', customer_id: customer.id }, agent.token, key);
    const otherBody = await post('/v1/tickets', { subject: 'Foxtrot two', customer_id: customer.id }, agent.token, key);
    expect(otherBody.status, otherBody.text).to.equal(422);
    expect(obj(otherBody).code).to.equal(42250);
    const ticket = (await ticketsWithSubject('Foxtrot one'))[0] as Json;
    const otherPath = await post(
      `/v1/tickets/${String(ticket.id)}/messages`,
      { subject: 'Foxtrot one', customer_id: customer.id },
      agent.token,
      key,
    );
    expect(otherPath.status).to.equal(422);
    expect(obj(otherPath).code).to.equal(42250);
    expect(await ticketsWithSubject('Foxtrot two')).to.have.length(0);
    expect(arr(await api.get(`/v1/tickets/${String(ticket.id)}/messages`, { token: agent.token }))).to.have.length(0);
  });

  it('keeps a 4xx answer too: a repeat of a refused POST gets the same 422, replayed', async () => {
    const key = freshKey();
    const first = await post('/v1/tickets', { subject: '', customer_id: customer.id }, agent.token, key);
    expect(first.status).to.equal(422);
    const again = await post('/v1/tickets', { subject: '', customer_id: customer.id }, agent.token, key);
    expect(again.status).to.equal(422);
    expect(again.header('idempotent-replayed')).to.equal('true');
    expect(again.text).to.equal(first.text);
  });

  for (const [what, key] of [
    ['empty', ''],
    ['256 characters long', 'k'.repeat(256)],
    ['holding a space', 'two words'],
    ['holding a non-ASCII character', 'clé'],
  ] as const) {
    it(`refuses a key ${what}: 400 code 40008, nothing created`, async () => {
      const before = await ticketsWithSubject('Bad key golf');
      const a = await api.request('POST', '/v1/tickets', {
        token: agent.token,
        headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
        body: Buffer.from(JSON.stringify({ subject: 'Bad key golf', customer_id: customer.id })),
      });
      expect(a.status, a.text).to.equal(400);
      expect(obj(a).code).to.equal(40008);
      expect(await ticketsWithSubject('Bad key golf')).to.have.length(before.length);
    });
  }

  it('takes keys of 255 printable characters, and applies to messages, users and groups', async () => {
    const key = `${'~'.repeat(250)}!"#$%`;
    const t = await post('/v1/tickets', { subject: 'Long key hotel', customer_id: customer.id }, agent.token, key);
    expect(t.status, t.text).to.equal(201);
    const path = `/v1/tickets/${String(obj(t).id)}/messages`;
    const mKey = freshKey();
    const m1 = await post(path, { body: 'Once only' }, customer.token, mKey);
    const m2 = await post(path, { body: 'Once only' }, customer.token, mKey);
    expect([m1.status, m2.status]).to.deep.equal([201, 201]);
    expect(m2.header('idempotent-replayed')).to.equal('true');
    expect(arr(await api.get(path, { token: customer.token }))).to.have.length(1);
    const gKey = freshKey();
    const g1 = await post('/v1/groups', { name: 'Idempotent group india' }, admin, gKey);
    const g2 = await post('/v1/groups', { name: 'Idempotent group india' }, admin, gKey);
    expect([g1.status, g2.status]).to.deep.equal([201, 201]);
    expect(g2.text).to.equal(g1.text);
  });

  it('ignores the key on the token endpoint and on other methods', async () => {
    const key = freshKey();
    const body = { grant_type: 'password', username: 'admin@example.com', password: 'admin-password-1' };
    const t1 = await api.post('/v1/oauth/token', body, { headers: { 'Idempotency-Key': key } });
    const t2 = await api.post('/v1/oauth/token', body, { headers: { 'Idempotency-Key': key } });
    expect([t1.status, t2.status]).to.deep.equal([200, 200]);
    expect(t2.header('idempotent-replayed')).to.equal(undefined);
    expect(obj(t1).access_token).to.not.equal(obj(t2).access_token);
    const got = await api.get('/v1/users/me', { token: admin, headers: { 'Idempotency-Key': 'two words' } });
    expect(got.status).to.equal(200);
  });

  it("decides what is kept on the real status, not the envelope's 200: an enveloped 401 is not kept", async () => {
    const key = freshKey();
    const enveloped = await api.post(
      '/v1/groups?envelope=true',
      { name: 'Anonymous kilo' },
      { headers: { 'Idempotency-Key': key } },
    );
    expect(enveloped.status).to.equal(200);
    expect((enveloped.json as EnvelopeBody).status_code).to.equal(401);
    for (let i = 0; i < 2; i++) {
      const plain = await api.post('/v1/groups', { name: 'Anonymous kilo' }, { headers: { 'Idempotency-Key': key } });
      expect(plain.status, plain.text).to.equal(401);
      expect(plain.header('www-authenticate')).to.equal('Bearer realm="support"');
      expect(plain.header('idempotent-replayed')).to.equal(undefined);
    }
  });

  it('keeps a 4xx on its own status when it was enveloped: the plain repeat is that 422, replayed', async () => {
    const key = freshKey();
    const enveloped = await post(
      '/v1/tickets?envelope=true',
      { subject: '', customer_id: customer.id },
      agent.token,
      key,
    );
    expect((enveloped.json as EnvelopeBody).status_code).to.equal(422);
    const again = await post('/v1/tickets', { subject: '', customer_id: customer.id }, agent.token, key);
    expect(again.status).to.equal(422);
    expect(again.header('idempotent-replayed')).to.equal('true');
    expect(again.header('content-type')).to.equal('application/json; charset=utf-8');
    expect(again.json).to.deep.equal((enveloped.json as EnvelopeBody).response);
  });

  it("renders a replay for the repeat's own request: JSONP, envelope, compact or plain as asked, the same answer inside", async () => {
    const key = freshKey();
    const body = { subject: 'Rendered lima', customer_id: customer.id };
    const first = await post('/v1/tickets', body, agent.token, key);
    expect(first.status, first.text).to.equal(201);
    const jsonp = await post('/v1/tickets?callback=cb', body, agent.token, key);
    expect(jsonp.status).to.equal(200);
    expect(jsonp.header('content-type')).to.equal('application/javascript; charset=utf-8');
    expect(jsonp.header('idempotent-replayed')).to.equal('true');
    const inside = jsonpArgument(jsonp.text, 'cb');
    expect(inside.status_code).to.equal(201);
    expect(inside.response).to.deep.equal(first.json);
    const enveloped = await post('/v1/tickets?envelope=true&pretty=false', body, agent.token, key);
    expect(enveloped.header('content-type')).to.equal('application/json; charset=utf-8');
    expect(enveloped.text).to.equal(JSON.stringify({ status_code: 201, next_page: null, response: first.json }));
    const plain = await post('/v1/tickets', body, agent.token, key);
    expect(plain.status).to.equal(201);
    expect(plain.header('content-type')).to.equal('application/json; charset=utf-8');
    expect(plain.text).to.equal(first.text);
    for (const h of ['location', 'etag', 'last-modified']) expect(plain.header(h), h).to.equal(first.header(h));
    expect(await ticketsWithSubject('Rendered lima')).to.have.length(1);
  });

  it('counts a replay against the rate limit like any request', async () => {
    const key = freshKey();
    const body = { subject: 'Counted juliet', customer_id: customer.id };
    const first = await post('/v1/tickets', body, agent.token, key);
    const again = await post('/v1/tickets', body, agent.token, key);
    expect(again.header('idempotent-replayed')).to.equal('true');
    expect(Number(again.header('x-rate-limit-remaining'))).to.equal(Number(first.header('x-rate-limit-remaining')) - 1);
  });
});
