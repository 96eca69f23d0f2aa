import { createHttpApp, shortLaneRoutes } from '@support/adapter-http-koa';
import type { Application } from '@support/application';
import { expect } from 'chai';
import { TYPES, type HttpAppFor } from '../../src/index.js';
import type { HttpLogger } from '@support/adapter-http-koa';
import { startApi, type Answer, type Api, type RequestOptions } from '../support/harness.js';
import { createTicket, type CreatedTicket } from '../support/http-conventions.js';

// The short lane (adapter-http-koa/src/pipeline/lane.ts) serves GET and HEAD of the routes the
// router answers with one handler of its own, without Koa's composer and the router. It must
// answer exactly as the long way does; every route it serves is compared (the last test). Two services share one store and one clock: one with the lane (the default), one
// with every request through Koa and the router. Each request goes to both, the lane first;
// status, headers and the bytes on the wire must be the same, and so must the access log line.
// What differs by nature: Date (the wall clock), the generated request id (a fixed
// X-Request-Id is sent, so it is compared too), and X-Rate-Limit-Remaining (both count against
// the same subject in the one store: the second answer has one less).

const publicUrl = 'https://support.example.com';

const comparable = (a: Answer): Record<string, unknown> => {
  const headers: Record<string, unknown> = { ...a.headers };
  delete headers.date;
  delete headers['x-rate-limit-remaining'];
  return { status: a.status, headers, raw: a.raw.toString('base64') };
};

/** The access log line of the request with this id, without its duration. */
const accessLine = (api: Api, requestId: string): Record<string, unknown> | undefined => {
  for (const line of api.logs) {
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (entry.m === 'request' && entry.request_id === requestId) {
      delete entry.duration_ms;
      return entry;
    }
  }
  return undefined;
};

describe('short lane: the same answers as Koa and the router', () => {
  let lane: Api;
  let long: Api;
  let admin: string;
  let customer: { id: number; token: string };
  let other: { id: number; token: string };
  let agent: { id: number; token: string };
  let ticket: CreatedTicket;
  let pairs = 0;
  const laneRoutes = shortLaneRoutes();
  const compared = new Set<string>();

  before(async () => {
    lane = await startApi({ HTTP_PORT: '0', PUBLIC_URL: publicUrl });
    long = await startApi(
      { HTTP_PORT: '0', PUBLIC_URL: publicUrl },
      {
        rebind: (c) => {
          c.rebindSync(TYPES.Store).toConstantValue(lane.server.store);
          c.rebindSync(TYPES.Clock).toConstantValue(lane.clock);
          c.rebindSync(TYPES.HttpApp).toResolvedValue(
            (app: Application, logger: HttpLogger): HttpAppFor =>
              (url, shutdown) =>
                createHttpApp(app, { publicUrl: url, trustProxy: false, logger, shutdown, shortLane: false }),
            [TYPES.Application, TYPES.Logger],
          );
        },
      },
    );
    admin = await lane.adminToken();
    customer = await lane.userWithToken('customer', 'Grace Hopper');
    other = await lane.userWithToken('customer', 'Alan Kay');
    agent = await lane.userWithToken('agent', 'Ada Lovelace');
    ticket = await createTicket(lane, admin, customer.id, { subject: 'Lane', summary: 'y'.repeat(300) });
    for (let i = 0; i < 4; i += 1) await createTicket(lane, admin, customer.id, { subject: `export ${i}` });
  });
  after(async () => {
    await long.close();
    await lane.close();
  });

  /** Sends one request to both services (the lane first) and checks the two answers are one. */
  const both = async (method: string, path: string, options: RequestOptions = {}): Promise<Answer> => {
    pairs += 1;
    const route = laneRoutes.match(method, path)?.route.path;
    if (route !== undefined) compared.add(route);
    const requestId = `lane-pair-${pairs}`;
    const withId: RequestOptions = { ...options, headers: { 'X-Request-Id': requestId, ...options.headers } };
    const a = await lane.request(method, path, withId);
    const b = await long.request(method, path, withId);
    const what = `${method} ${path} ${JSON.stringify(options.headers ?? {})}`;
    expect(comparable(a), what).to.deep.equal(comparable(b));
    const remaining = a.header('x-rate-limit-remaining');
    if (remaining !== undefined)
      expect(Number(b.header('x-rate-limit-remaining')), what).to.equal(Number(remaining) - 1);
    expect(accessLine(lane, requestId), `${what}: access log`).to.not.equal(undefined);
    expect(accessLine(lane, requestId), `${what}: access log`).to.deep.equal(accessLine(long, requestId));
    return a;
  };

  it('one ticket: every representation option, compression and conditional form', async () => {
    const first = await both('GET', ticket.path, { token: admin });
    expect(first.status).to.equal(200);
    const etag = first.header('etag') ?? '';
    const lastModified = first.header('last-modified') ?? '';
    const variants: [string, RequestOptions][] = [
      [ticket.path, { token: admin, headers: { 'Accept-Encoding': 'gzip' } }],
      [ticket.path, { token: admin, headers: { 'Accept-Encoding': 'gzip;q=0, identity' } }],
      [ticket.path, { token: admin, headers: { 'Accept-Encoding': 'br, *' } }],
      [ticket.path, { token: admin, headers: { 'If-None-Match': etag } }],
      [ticket.path, { token: admin, headers: { 'If-None-Match': etag, 'Accept-Encoding': 'gzip' } }],
      [ticket.path, { token: admin, headers: { 'If-None-Match': `W/${etag}, "other"` } }],
      [ticket.path, { token: admin, headers: { 'If-None-Match': '"other"' } }],
      [ticket.path, { token: admin, headers: { 'If-None-Match': '*' } }],
      [ticket.path, { token: admin, headers: { 'If-Modified-Since': lastModified } }],
      [ticket.path, { token: admin, headers: { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' } }],
      [ticket.path, { token: admin, headers: { 'If-Modified-Since': 'not a date' } }],
      [`${ticket.path}?fields=id,subject,state`, { token: admin }],
      [`${ticket.path}?fields=nope`, { token: admin }],
      [`${ticket.path}?embed=customer,group`, { token: admin, headers: { 'Accept-Encoding': 'gzip' } }],
      [`${ticket.path}?embed=customer.name`, { token: admin }],
      [`${ticket.path}?embed=nothing`, { token: admin }],
      [`${ticket.path}?pretty=true`, { token: admin }],
      [`${ticket.path}?pretty=maybe`, { token: admin }],
      [`${ticket.path}?envelope=true`, { token: admin }],
      [`${ticket.path}?callback=show`, { token: admin }],
      [`${ticket.path}?callback=1bad!`, { token: admin }],
      [`${ticket.path}?unknown=1`, { token: admin }],
      [`${ticket.path}?%FF=1`, { token: admin }],
      [`${ticket.path}?fields=id&fields=subject`, { token: admin }],
      [`${ticket.path}?`, { token: admin }],
      [ticket.path, { token: admin, headers: { 'X-Api-Version': '1.0' } }],
      [ticket.path, { token: admin, headers: { 'X-Api-Version': '9.9' } }],
      [ticket.path, { token: admin, headers: { 'X-Api-Version': 'banana' } }],
      [ticket.path, { token: admin, headers: { Accept: 'application/xml' } }],
      [ticket.path, { token: admin, headers: { Accept: 'text/html, application/json;q=0.1' } }],
      [ticket.path, { token: admin, headers: { 'X-HTTP-Method-Override': 'DELETE' } }],
      [ticket.path, { token: admin, headers: { 'Idempotency-Key': 'k-1' } }],
      [ticket.path, { token: admin, headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' }],
    ];
    for (const [path, options] of variants) await both('GET', path, options);
    for (const [path, options] of variants.slice(0, 6)) await both('HEAD', path, options);
  });

  it('one ticket: every caller, every refusal', async () => {
    await both('GET', ticket.path, { token: customer.token });
    await both('GET', ticket.path, { token: other.token });
    await both('GET', ticket.path, { token: agent.token, headers: { 'Accept-Encoding': 'gzip' } });
    await both('GET', ticket.path);
    await both('GET', ticket.path, { token: 'not-a-token' });
    await both('GET', ticket.path, { headers: { Authorization: 'Basic YTpi' } });
    await both('GET', `${ticket.path}?access_token=${admin}`);
    await both('GET', `${ticket.path}?access_token=${admin}`, { token: admin });
    await both('GET', `${ticket.path}?access_token=${admin}&access_token=${admin}`);
    for (const id of ['0', '007', '999999', '99999999999999999999', '9007199254740991'])
      await both('GET', `/v1/tickets/${id}`, { token: admin });
    const a = await both('GET', ticket.path, { token: admin, plain: true });
    expect(a.status).to.equal(403);
  });

  it("attachments: one, its bytes (ranges, conditional forms, three ways of sending the token), a ticket's list", async () => {
    const up = await lane.request('POST', '/v1/uploads?filename=notes.txt', {
      token: customer.token,
      headers: { 'Content-Type': 'text/plain' },
      body: Buffer.from('line one\nline two\n'),
    });
    expect(up.status).to.equal(201);
    const id = (up.json as { id: number }).id;
    const m = await lane.post(
      `${ticket.path}/messages`,
      { body: 'see file', attachment_ids: [id] },
      { token: customer.token },
    );
    expect(m.status).to.equal(201);
    const content = `/v1/attachments/${String(id)}/content`;
    const etag = (await both('GET', content, { token: customer.token })).header('etag') ?? '';
    for (const headers of [
      { Range: 'bytes=0-3' },
      { Range: 'bytes=-4' },
      { Range: 'bytes=5-' },
      { Range: 'bytes=900-' },
      { Range: 'bytes=0-1,4-5' },
      { Range: 'bytes=0-3', 'If-Range': '"other"' },
      { 'If-None-Match': etag },
    ])
      await both('GET', content, { token: customer.token, headers });
    await both('HEAD', content, { token: admin });
    await both('GET', `${content}?access_token=${customer.token}`);
    await both('GET', content, {
      headers: { Authorization: `Basic ${Buffer.from(`${agent.token}:`).toString('base64')}` },
    });
    await both('GET', content, { token: other.token });
    await both('GET', content);
    await both('GET', `/v1/attachments/${String(id)}`, { token: customer.token });
    await both('GET', `/v1/attachments/${String(id)}`, { token: other.token });
    await both('GET', '/v1/attachments/999999', { token: admin });
    await both('GET', `${ticket.path}/attachments`, { token: admin });
    await both('GET', `${ticket.path}/attachments?per_page=0`, { token: admin });
    await both('GET', `${ticket.path}/attachments`, { token: other.token });
  });

  it('the ticket list: pages, filters, search, refusals', async () => {
    const first = await both('GET', '/v1/tickets', { token: admin, headers: { 'Accept-Encoding': 'gzip' } });
    expect(first.status).to.equal(200);
    for (const path of [
      '/v1/tickets?per_page=2&page=2',
      '/v1/tickets?q=export&per_page=30',
      '/v1/tickets?state=open&sort=-created_at',
      '/v1/tickets?sort=bad',
      '/v1/tickets?per_page=0',
      '/v1/tickets?fields=id,subject&pretty=true',
      '/v1/tickets?envelope=true&per_page=1',
    ]) {
      await both('GET', path, { token: admin });
      await both('GET', path, { token: customer.token, headers: { 'Accept-Encoding': 'gzip' } });
    }
    await both('GET', '/v1/tickets', { token: admin, headers: { 'If-None-Match': first.header('etag') ?? '' } });
    await both('HEAD', '/v1/tickets?per_page=1', { token: admin });
    await both('GET', '/v1/tickets');
  });

  it('messages, users and groups', async () => {
    const posted = await lane.post(
      `${ticket.path}/messages`,
      { body: 'Hello from the customer' },
      { token: customer.token },
    );
    expect(posted.status, posted.text).to.equal(201);
    const internal = await lane.post(
      `${ticket.path}/messages`,
      { body: 'Staff only', internal: true },
      { token: agent.token },
    );
    expect(internal.status, internal.text).to.equal(201);
    const group = await lane.post('/v1/groups', { name: 'Lane group' }, { token: admin });
    expect(group.status, group.text).to.equal(201);
    const groupPath = `/v1/groups/${(group.json as { id: number }).id}`;
    const messages = `${ticket.path}/messages`;
    for (const token of [admin, agent.token, customer.token, other.token]) {
      await both('GET', messages, { token });
      await both('GET', `${messages}?per_page=1&page=2`, { token, headers: { 'Accept-Encoding': 'gzip' } });
      await both('GET', `${messages}/1`, { token });
      await both('GET', `${messages}/2?pretty=true`, { token });
      await both('GET', `${messages}/99`, { token });
      await both('GET', `/v1/tickets/999999/messages`, { token });
      await both('GET', `/v1/users/${customer.id}`, { token, headers: { 'Accept-Encoding': 'gzip' } });
      await both('GET', `/v1/users/${agent.id}?envelope=true`, { token });
      await both('GET', '/v1/users/999999', { token });
      await both('GET', groupPath, { token });
      await both('GET', `${groupPath}?fields=id`, { token });
      await both('GET', '/v1/groups/0', { token });
    }
    expect((await both('GET', messages, { token: customer.token })).status).to.equal(200);
    expect((await both('GET', messages, { token: other.token })).status).to.equal(404);
    expect((await both('GET', groupPath, { token: agent.token })).status).to.equal(200);
    expect((await both('GET', '/v1/users/999999', { token: admin })).status).to.equal(404);
    const m = await both('GET', `${messages}/1`, { token: admin });
    expect(m.status).to.equal(200);
    await both('GET', `${messages}/1`, { token: admin, headers: { 'If-None-Match': m.header('etag') ?? '' } });
    await both('HEAD', `/v1/users/${customer.id}`, { token: admin });
    await both('GET', `/v1/users/${customer.id}`);
  });

  it('the change feed', async () => {
    const first = await both('GET', '/v1/events', { token: admin });
    expect(first.status, first.text).to.equal(200);
    expect((first.json as unknown[]).length).to.be.greaterThan(0);
    for (const path of [
      '/v1/events?after=2&per_page=3',
      '/v1/events?after=999999&wait=0',
      '/v1/events?per_page=0',
      '/v1/events?wait=-1',
      '/v1/events?after=x',
    ]) {
      await both('GET', path, { token: admin, headers: { 'Accept-Encoding': 'gzip' } });
    }
    await both('GET', '/v1/events?envelope=true&per_page=2', { token: admin });
    await both('GET', '/v1/events', { token: customer.token });
    await both('GET', '/v1/events', { token: agent.token });
    await both('GET', '/v1/events');
  });

  it('a change through either service is what both answer next', async () => {
    const before = await both('GET', ticket.path, { token: admin, headers: { 'Accept-Encoding': 'gzip' } });
    for (const [api, subject] of [
      [lane, 'changed through the lane service'],
      [long, 'changed through the long way'],
    ] as const) {
      const patched = await api.request('PATCH', ticket.path, { token: admin, body: { subject } });
      expect(patched.status, patched.text).to.equal(200);
      lane.clock.advance(1_000);
      const after = await both('GET', ticket.path, {
        token: admin,
        headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': before.header('etag') ?? '' },
      });
      expect(after.status).to.equal(200);
      expect((after.json as { subject: string }).subject).to.equal(subject);
      await both('GET', '/v1/tickets?per_page=100', { token: admin });
    }
  });

  it('the other lists and reads: users, groups, personal tokens, webhooks, ticket fields, the deprecation schedule', async () => {
    const field = await lane.post(
      '/v1/ticket_fields',
      { key: 'tier', title: 'Tier', type: 'dropdown', options: [{ value: 'gold' }], customer_visible: true },
      { token: admin },
    );
    expect(field.status, field.text).to.equal(201);
    const scoped = await lane.post(
      '/v1/users/me/tokens',
      { name: 'Lane reader', scopes: ['tickets:read', 'users:read'] },
      { token: agent.token },
    );
    expect(scoped.status, scoped.text).to.equal(201);
    const { id: tokenId, token: narrow } = scoped.json as { id: number; token: string };
    for (const token of [admin, agent.token, customer.token, narrow]) {
      await both('GET', '/v1/users?per_page=2', { token, headers: { 'Accept-Encoding': 'gzip' } });
      await both('GET', '/v1/groups', { token });
      await both('GET', '/v1/groups/1/users?per_page=1', { token });
      await both('GET', `/v1/users/${agent.id}/tokens`, { token });
      await both('GET', `/v1/users/${agent.id}/tokens/${tokenId}`, { token });
      await both('GET', `/v1/users/${agent.id}/tokens/999`, { token });
      await both('GET', '/v1/webhooks', { token });
      await both('GET', '/v1/webhooks/1', { token });
      await both('GET', '/v1/webhooks/1/deliveries', { token });
      await both('GET', '/v1/ticket_fields', { token });
      await both('GET', '/v1/ticket_fields/1', { token });
      await both('GET', `${ticket.path}?fields=id`, { token });
    }
    expect((await both('GET', `/v1/users/${agent.id}/tokens`, { token: agent.token })).status).to.equal(200);
    await both('GET', '/v1/users?per_page=0', { token: admin });
    await both('GET', '/v1/deprecations');
    await both('GET', '/v1/deprecations', { headers: { 'Accept-Encoding': 'gzip' } });
  });

  it('every route the lane serves was compared', () => {
    // But the document's own route: its URL is /v1/openapi.json, which goes the long way (the
    // suffix); the bare /v1/openapi is in no document, and the harness refuses such an answer.
    const served = laneRoutes.routes.map((r) => r.path).filter((path) => path !== '/v1/openapi');
    expect(served).to.have.length(laneRoutes.routes.length - 1);
    expect([...compared]).to.have.members(served);
  });
});
