import { expect } from 'chai';
import { adminEmail, adminPassword, type Answer, type Api } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { basic, expectError, expectUnauthorized, oauthRequest, rateHeaders } from '../support/oauth.js';

// Contract §1 and §6: RATE_LIMIT requests per RATE_LIMIT_WINDOW_S per user, all their
// tokens together; unauthenticated requests (the token endpoint included) per client IP
// at a tenth of it, rounded up. Every API response carries X-Rate-Limit-Limit, -Remaining
// and -Reset (seconds left in the window); over the limit: 429 with Retry-After.
// /healthz and /readyz are not rate limited. The manual clock moves the windows.

const windowS = 60;
const windowMs = windowS * 1000;
const rateLimited = 42901;

/** Moves the clock to the start of the next window: every counter starts afresh. */
const nextWindow = (api: Api): void => {
  api.clock.set((Math.floor(api.clock.now() / windowMs) + 1) * windowMs);
};

const expectRate = (a: Answer, limit: number, remaining: number, reset: number = windowS): void => {
  expect(rateHeaders(a), `${a.status} ${a.text}`).to.deep.equal({ limit, remaining, reset });
};

const expectTooMany = (a: Answer, limit: number, reset: number = windowS): void => {
  expectError(a, 429, rateLimited);
  expect(a.header('retry-after')).to.equal(String(reset));
  expectRate(a, limit, 0, reset);
};

describe('HTTP: rate limiting (RATE_LIMIT=5, window 60 s)', () => {
  const api = suiteApi({ RATE_LIMIT: '5', RATE_LIMIT_WINDOW_S: String(windowS) });

  it('counts down on every answer, errors included, then answers 429 with Retry-After until the window ends', async () => {
    nextWindow(api);
    const login = await oauthRequest(api, '/v1/oauth/token', {
      grant_type: 'password',
      username: adminEmail,
      password: adminPassword,
    });
    expect(login.status, login.text).to.equal(200);
    // The token endpoint counts per client IP: a tenth of 5, rounded up.
    expectRate(login, 1, 0);
    const token = (login.json as { access_token: string }).access_token;

    expectRate(await api.get('/v1/users/me', { token }), 5, 4);
    api.clock.advance(15_500);
    // Reset is the seconds left in the window (rounded up), not a timestamp.
    const list = await api.get('/v1/tickets', { token });
    expect(list.status).to.equal(200);
    expectRate(list, 5, 3, 45);
    const unknown = await api.get('/v1/no-such-thing', { token });
    expect(unknown.status).to.equal(404);
    expectRate(unknown, 5, 2, 45);
    const wrongMethod = await api.request('DELETE', '/v1/tickets', { token });
    expect(wrongMethod.status).to.equal(405);
    expectRate(wrongMethod, 5, 1, 45);
    const invalid = await api.post('/v1/tickets', { subject: '' }, { token });
    expect(invalid.status).to.equal(422);
    expectRate(invalid, 5, 0, 45);

    const refused = await api.get('/v1/users/me', { token });
    expectTooMany(refused, 5, 45);
    expect(refused.text).to.not.include(adminEmail);
    api.clock.advance(44_000);
    expectTooMany(await api.post('/v1/tickets', { subject: 'Still limited' }, { token }), 5, 1);
    api.clock.advance(1_000);
    const fresh = await api.get('/v1/users/me', { token });
    expect(fresh.status, fresh.text).to.equal(200);
    expectRate(fresh, 5, 4);
  });

  it('counts a user across all their tokens and all three ways of sending one; other users keep their own count', async () => {
    nextWindow(api);
    const first = await api.adminToken();
    nextWindow(api);
    const customer = await api.userWithToken('customer');
    nextWindow(api);
    const second = await api.login(adminEmail, adminPassword);
    expect(second).to.not.equal(first);

    nextWindow(api);
    expectRate(await api.get('/v1/users/me', { token: first }), 5, 4);
    expectRate(await api.get('/v1/users/me', { token: second }), 5, 3);
    expectRate(await api.get('/v1/users/me', { headers: { Authorization: basic(first) } }), 5, 2);
    expectRate(await api.get(`/v1/users/me?access_token=${encodeURIComponent(second)}`), 5, 1);
    expectRate(await api.get('/v1/tickets', { token: first }), 5, 0);
    expectTooMany(await api.get('/v1/users/me', { token: second }), 5);
    expectTooMany(await api.get('/v1/users/me', { headers: { Authorization: basic(first) } }), 5);
    expectTooMany(await api.get(`/v1/users/me?access_token=${encodeURIComponent(second)}`), 5);

    const other = await api.get('/v1/users/me', { token: customer.token });
    expect(other.status, other.text).to.equal(200);
    expectRate(other, 5, 4);
    // The client IP has its own, separate count.
    const anonymous = await api.get('/v1/tickets');
    expectUnauthorized(anonymous);
    expectRate(anonymous, 1, 0);

    nextWindow(api);
    expectRate(await api.get('/v1/users/me', { token: second }), 5, 4);
  });

  it('counts unauthenticated requests per client IP at a tenth of the limit, the token endpoint and bad tokens included', async () => {
    nextWindow(api);
    const token = await api.adminToken();
    nextWindow(api);
    const anonymous = await api.get('/v1/tickets');
    expectUnauthorized(anonymous);
    expectRate(anonymous, 1, 0);
    // Over the limit: 429 comes before the 401, so guessing tokens is limited too.
    expectTooMany(await api.get('/v1/tickets'), 1);
    expectTooMany(await api.get('/v1/users/me', { token: 'guessed-token' }), 1);
    expectTooMany(
      await oauthRequest(api, '/v1/oauth/token', {
        grant_type: 'password',
        username: adminEmail,
        password: adminPassword,
      }),
      1,
    );
    expectTooMany(
      await oauthRequest(
        api,
        '/v1/oauth/token',
        { grant_type: 'password', username: adminEmail, password: adminPassword },
        'json',
      ),
      1,
    );
    expectTooMany(await oauthRequest(api, '/v1/oauth/revoke', { token: 'whatever' }), 1);
    // Without TRUST_PROXY, X-Forwarded-For is the client's word: it does not open a new count.
    expectTooMany(await api.get('/v1/tickets', { headers: { 'X-Forwarded-For': '203.0.113.7' } }), 1);
    // A token endpoint request counts per IP even when it carries a valid access token.
    expectTooMany(
      await api.post(
        '/v1/oauth/token',
        { grant_type: 'password', username: adminEmail, password: adminPassword },
        { token },
      ),
      1,
    );
    // A valid token counts against its user, not the exhausted IP.
    const authenticated = await api.get('/v1/users/me', { token });
    expect(authenticated.status).to.equal(200);
    expectRate(authenticated, 5, 4);
  });

  it('does not limit or count /healthz and /readyz', async () => {
    nextWindow(api);
    for (let i = 0; i < 4; i += 1) {
      for (const path of ['/healthz', '/readyz']) {
        const a = await api.get(path);
        expect(a.status, `${path} ${a.text}`).to.equal(200);
        expect(a.header('x-rate-limit-limit'), path).to.equal(undefined);
        expect(a.header('x-rate-limit-remaining'), path).to.equal(undefined);
        expect(a.header('x-rate-limit-reset'), path).to.equal(undefined);
      }
    }
    // The health checks did not use up the IP's single request.
    const first = await api.get('/v1/tickets');
    expectUnauthorized(first);
    expectRate(first, 1, 0);
    expectTooMany(await api.get('/v1/tickets'), 1);
    expect((await api.get('/healthz')).status).to.equal(200);
    expect((await api.get('/readyz')).status).to.equal(200);
  });

  it('answers 429 in the envelope when asked, keeping the headers', async () => {
    nextWindow(api);
    const token = await api.login(adminEmail, adminPassword);
    nextWindow(api);
    for (let i = 0; i < 5; i += 1) expect((await api.get('/v1/users/me', { token })).status).to.equal(200);
    const a = await api.get('/v1/users/me?envelope=true', { token });
    expect(a.status, a.text).to.equal(200);
    expect(a.json).to.deep.include({ status_code: 429 });
    expect((a.json as { response: { code: number } }).response.code).to.equal(rateLimited);
    expectRate(a, 5, 0);
    expect(a.header('retry-after')).to.equal(String(windowS));
  });
});

describe('HTTP: rate limiting rounds the per-IP limit up (RATE_LIMIT=15)', () => {
  const api = suiteApi({ RATE_LIMIT: '15', RATE_LIMIT_WINDOW_S: String(windowS) });

  it('allows ceil(15 / 10) = 2 unauthenticated requests per window, and 15 per user', async () => {
    nextWindow(api);
    const wrong = await oauthRequest(api, '/v1/oauth/token', {
      grant_type: 'password',
      username: adminEmail,
      password: 'wrong-password',
    });
    expectError(wrong, 400, 40011);
    expectRate(wrong, 2, 1);
    const ok = await oauthRequest(api, '/v1/oauth/token', {
      grant_type: 'password',
      username: adminEmail,
      password: adminPassword,
    });
    expect(ok.status, ok.text).to.equal(200);
    expectRate(ok, 2, 0);
    expectTooMany(
      await oauthRequest(api, '/v1/oauth/token', {
        grant_type: 'password',
        username: adminEmail,
        password: adminPassword,
      }),
      2,
    );
    const token = (ok.json as { access_token: string }).access_token;
    expectRate(await api.get('/v1/users/me', { token }), 15, 14);
  });
});
