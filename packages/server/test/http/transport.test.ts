import { expect } from 'chai';
import type { Answer, Api } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { expectError } from '../support/http-conventions.js';

// Contract §1 and the seed's transport rule: TLS only, never a redirect; behind a trusted
// proxy X-Forwarded-Proto/-For count, otherwise they are ignored; health endpoints.

/** The refusal of a request that did not arrive over TLS. */
const expectTlsRequired = (a: Answer, api: Api): void => {
  expectError(a, 403, 40302);
  expect(a.header('location')).to.equal(undefined);
  expect(a.header('refresh')).to.equal(undefined);
  expect(a.header('strict-transport-security')).to.equal(undefined);
  const body = a.json as { description: string; message: string };
  expect(`${body.message} ${body.description}`).to.match(/TLS|HTTPS/);
  expect(body.description).to.include(api.origin);
};

/** The X-Rate-Limit-Limit and -Remaining of an answer, as numbers. */
const rateHeaders = (a: Answer): { limit: number; remaining: number } => ({
  limit: Number(a.header('x-rate-limit-limit')),
  remaining: Number(a.header('x-rate-limit-remaining')),
});

describe('HTTP transport: the plain listener refuses everything with 403', () => {
  let admin: string;
  const api = suiteApi({ HTTP_PORT: '0' });
  before(async () => {
    admin = await api.adminToken();
  });

  it('listens on its own port beside HTTPS', () => {
    expect(api.server.httpPort).to.be.a('number').and.not.equal(api.server.port);
  });

  it('answers a GET 403 in JSON saying TLS is required, without Location or redirect', async () => {
    const a = await api.get('/v1/tickets', { plain: true });
    expectTlsRequired(a, api);
    expect(a.status).not.to.be.within(300, 399);
  });

  it('refuses whatever the request: any path, method, body, token, even the token endpoint and health', async () => {
    const requests: [string, string, unknown][] = [
      ['GET', '/', undefined],
      ['GET', '/v1/nothing', undefined],
      ['POST', '/v1/tickets', { subject: 'Over plain HTTP' }],
      ['DELETE', '/v1/tickets/1', undefined],
      [
        'POST',
        '/v1/oauth/token',
        { grant_type: 'password', username: 'admin@example.com', password: 'admin-password-1' },
      ],
      ['GET', '/healthz', undefined],
      ['GET', '/v1/tickets.xml', undefined],
    ];
    for (const [method, path, body] of requests) {
      const a = await api.request(method, path, { plain: true, ...(body === undefined ? {} : { body }) });
      expectTlsRequired(a, api);
    }
    // A valid token sent in clear text gets no further.
    expectTlsRequired(await api.get('/v1/tickets', { plain: true, token: admin }), api);
  });

  it('does not honour X-Forwarded-Proto on the plain listener (TRUST_PROXY is off)', async () => {
    expectTlsRequired(
      await api.get('/v1/deprecations', { plain: true, headers: { 'X-Forwarded-Proto': 'https' } }),
      api,
    );
  });

  it('answers in JSON conventions (pretty, request id, gzip) all the same', async () => {
    const a = await api.get('/v1/tickets', {
      plain: true,
      headers: { 'X-Request-Id': 'plain-1', 'Accept-Encoding': 'gzip' },
    });
    expect(a.status).to.equal(403);
    expect(a.header('x-request-id')).to.equal('plain-1');
    expect(a.text).to.equal(`${JSON.stringify(a.json, null, 2)}\n`);
  });

  it('the HTTPS listener works as usual meanwhile', async () => {
    const a = await api.get('/v1/tickets', { token: admin });
    expect(a.status).to.equal(200);
  });
});

describe('HTTP transport: behind a trusted proxy (TRUST_PROXY=true)', () => {
  // One tenth of 10, rounded up: 1 unauthenticated request per client IP and window.
  const api = suiteApi({ TRUST_PROXY: 'true', RATE_LIMIT: '10' });

  it('a request forwarded as http gets the same 403, no Location', async () => {
    for (const [i, proto] of ['http', 'HTTP', 'http, https'].entries()) {
      const a = await api.get('/v1/deprecations', {
        headers: { 'X-Forwarded-Proto': proto, 'X-Forwarded-For': `192.0.2.${i + 1}` },
      });
      expectTlsRequired(a, api);
    }
  });

  it('a request forwarded as https, or not marked, is served', async () => {
    const https = await api.get('/v1/deprecations', {
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '192.0.2.50' },
    });
    expect(https.status, https.text).to.equal(200);
    const unmarked = await api.get('/v1/deprecations', { headers: { 'X-Forwarded-For': '192.0.2.51' } });
    expect(unmarked.status, unmarked.text).to.equal(200);
  });

  it('X-Forwarded-For decides the client IP the unauthenticated rate limit counts', async () => {
    const first = await api.get('/v1/deprecations', { headers: { 'X-Forwarded-For': '203.0.113.1' } });
    expect(first.status).to.equal(200);
    expect(rateHeaders(first)).to.deep.equal({ limit: 1, remaining: 0 });
    const second = await api.get('/v1/deprecations', { headers: { 'X-Forwarded-For': '203.0.113.1' } });
    expectError(second, 429, 42901);
    expect(Number(second.header('retry-after'))).to.be.greaterThan(0);
    // Another client behind the same proxy has its own allowance.
    const other = await api.get('/v1/deprecations', { headers: { 'X-Forwarded-For': '203.0.113.2' } });
    expect(other.status).to.equal(200);
    expect(rateHeaders(other)).to.deep.equal({ limit: 1, remaining: 0 });
  });

  it('only the address the proxy saw counts (the last entry), not what the client wrote before it', async () => {
    const a = await api.get('/v1/deprecations', { headers: { 'X-Forwarded-For': '198.51.100.1, 203.0.113.7' } });
    expect(a.status).to.equal(200);
    const spoofed = await api.get('/v1/deprecations', { headers: { 'X-Forwarded-For': '198.51.100.2, 203.0.113.7' } });
    expectError(spoofed, 429, 42901);
  });

  it('the refusal of a forwarded http request counts against that client too', async () => {
    expectTlsRequired(
      await api.get('/v1/deprecations', {
        headers: { 'X-Forwarded-Proto': 'http', 'X-Forwarded-For': '203.0.113.20' },
      }),
      api,
    );
    expectError(await api.get('/v1/deprecations', { headers: { 'X-Forwarded-For': '203.0.113.20' } }), 429, 42901);
  });
});

describe('HTTP transport: without TRUST_PROXY, forwarding headers are ignored', () => {
  const api = suiteApi({ RATE_LIMIT: '10' });

  it('X-Forwarded-Proto: http does not refuse an HTTPS request, and X-Forwarded-For does not change the client', async () => {
    const a = await api.get('/v1/deprecations', {
      headers: { 'X-Forwarded-Proto': 'http', 'X-Forwarded-For': '203.0.113.1' },
    });
    expect(a.status, a.text).to.equal(200);
    expect(rateHeaders(a)).to.deep.equal({ limit: 1, remaining: 0 });
    // Another claimed address is still this same connection's address: its allowance is spent.
    const b = await api.get('/v1/deprecations', { headers: { 'X-Forwarded-For': '203.0.113.2' } });
    expectError(b, 429, 42901);
  });

  it('/healthz and /readyz answer 200 even with the limit spent, without rate-limit headers', async () => {
    for (let i = 0; i < 3; i += 1) {
      const h = await api.get('/healthz');
      expect(h.status).to.equal(200);
      expect(h.json).to.deep.equal({ status: 'ok' });
      const r = await api.get('/readyz');
      expect(r.status).to.equal(200);
      expect(r.json).to.deep.equal({ status: 'ready' });
      for (const a of [h, r]) {
        expect(a.header('x-rate-limit-limit')).to.equal(undefined);
        expect(a.header('x-rate-limit-remaining')).to.equal(undefined);
        expect(a.header('content-type')).to.equal('application/json; charset=utf-8');
      }
    }
  });
});

describe('HTTP transport: health endpoints', () => {
  const api = suiteApi();

  it('are unauthenticated and unversioned: a bad token or an unknown X-Api-Version does not matter', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const a = await api.get(path, { token: 'not-a-token', headers: { 'X-Api-Version': '9.9' } });
      expect(a.status, `${path}: ${a.text}`).to.equal(200);
    }
  });

  it('are not cached', async () => {
    const a = await api.get('/healthz');
    expect(a.header('cache-control')).to.equal('no-store');
    expect(a.header('etag')).to.equal(undefined);
  });

  it('answer other methods 405 with Allow: GET, HEAD', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const a = await api.request('POST', path, { body: {} });
      expectError(a, 405, 40501);
      expect(a.header('allow')).to.equal('GET, HEAD');
    }
  });

  it('/readyz is 503 (JSON, Retry-After) while the store does not answer; /healthz stays 200', async () => {
    const health = api.server.app.health;
    const original: unknown = Reflect.get(health, 'ready');
    Reflect.set(health, 'ready', () => Promise.resolve(false));
    try {
      const r = await api.get('/readyz');
      expectError(r, 503, 50301);
      expect(Number(r.header('retry-after'))).to.be.greaterThan(0);
      expect((await api.get('/healthz')).status).to.equal(200);
    } finally {
      Reflect.set(health, 'ready', original);
    }
    expect((await api.get('/readyz')).status).to.equal(200);
  });

  it('/readyz is 503 too when the store check itself fails', async () => {
    const health = api.server.app.health;
    const original: unknown = Reflect.get(health, 'ready');
    Reflect.set(health, 'ready', () => Promise.reject(new Error('socket hang up')));
    try {
      expectError(await api.get('/readyz'), 503, 50301);
    } finally {
      Reflect.set(health, 'ready', original);
    }
  });
});
