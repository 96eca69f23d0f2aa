import { expect } from 'chai';
import { adminEmail, adminPassword } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import {
  basic,
  expectError,
  expectUnauthorized,
  grantOf,
  oauthRequest,
  passwordGrant,
  refreshGrant,
} from '../support/oauth.js';

// Contract §3: the OAuth 2 token endpoint (RFC 6749 password and refresh_token grants),
// revocation (RFC 7009), and the three ways to present an access token.

describe('HTTP: POST /v1/oauth/token', () => {
  const api = suiteApi();

  const me = (token: string) => api.get('/v1/users/me', { token });

  describe('the refresh_token grant', () => {
    it('rotates: it issues a new pair, and the used refresh token then fails', async () => {
      const first = await passwordGrant(api, adminEmail, adminPassword);
      for (const encoding of ['form', 'json'] as const) {
        const start = encoding === 'form' ? first : await passwordGrant(api, adminEmail, adminPassword, 'json');
        const refreshed = await refreshGrant(api, start.refresh_token, encoding);
        expect(refreshed.header('cache-control')).to.equal('no-store');
        const next = grantOf(refreshed);
        expect(next).to.have.all.keys('access_token', 'token_type', 'expires_in', 'refresh_token', 'scope');
        expect(next.token_type).to.equal('bearer');
        expect(next.access_token).to.not.equal(start.access_token);
        expect(next.refresh_token).to.not.equal(start.refresh_token);
        expect((await me(next.access_token)).status).to.equal(200);
        const again = await refreshGrant(api, start.refresh_token, encoding);
        expect(expectError(again, 400, 40011).error).to.equal('invalid_grant');
        expect(again.header('cache-control')).to.equal('no-store');
      }
    });

    it('treats a replayed refresh token as leaked and ends its whole session family', async () => {
      const first = await passwordGrant(api, adminEmail, adminPassword);
      const second = grantOf(await refreshGrant(api, first.refresh_token));
      const third = grantOf(await refreshGrant(api, second.refresh_token));
      // A session from another login is not touched by the replay.
      const other = await passwordGrant(api, adminEmail, adminPassword);

      expect(expectError(await refreshGrant(api, first.refresh_token), 400, 40011).error).to.equal('invalid_grant');
      expect(expectError(await refreshGrant(api, third.refresh_token), 400, 40011).error).to.equal('invalid_grant');
      expectUnauthorized(await me(third.access_token));
      expect((await me(other.access_token)).status).to.equal(200);
      expect(grantOf(await refreshGrant(api, other.refresh_token)).token_type).to.equal('bearer');
    });

    it('refuses an access token, an unknown token and a missing one', async () => {
      const g = await passwordGrant(api, adminEmail, adminPassword);
      expect(expectError(await refreshGrant(api, g.access_token), 400, 40011).error).to.equal('invalid_grant');
      expect(expectError(await refreshGrant(api, 'not-a-token'), 400, 40011).error).to.equal('invalid_grant');
      const missing = await oauthRequest(api, '/v1/oauth/token', { grant_type: 'refresh_token' });
      expect(expectError(missing, 400, 40010).error).to.equal('invalid_request');
      // The access token was not consumed by the failed attempt.
      expect((await me(g.access_token)).status).to.equal(200);
    });

    it('refuses a refresh token presented as an access token', async () => {
      const g = await passwordGrant(api, adminEmail, adminPassword);
      expectUnauthorized(await me(g.refresh_token));
    });
  });

  describe('POST /v1/oauth/revoke (RFC 7009)', () => {
    for (const encoding of ['form', 'json'] as const) {
      it(`makes an access token unusable (${encoding} body), other sessions untouched`, async () => {
        const g = await passwordGrant(api, adminEmail, adminPassword);
        const other = await passwordGrant(api, adminEmail, adminPassword);
        expect((await me(g.access_token)).status).to.equal(200);
        const r = await oauthRequest(api, '/v1/oauth/revoke', { token: g.access_token }, encoding);
        expect(r.status, r.text).to.equal(200);
        expect(r.header('cache-control')).to.equal('no-store');
        expectUnauthorized(await me(g.access_token));
        expectUnauthorized(await api.get(`/v1/users/me?access_token=${g.access_token}`));
        expect((await me(other.access_token)).status).to.equal(200);
      });
    }

    it('revokes a refresh token: it can no longer be used', async () => {
      const g = await passwordGrant(api, adminEmail, adminPassword);
      const r = await oauthRequest(api, '/v1/oauth/revoke', {
        token: g.refresh_token,
        token_type_hint: 'refresh_token',
      });
      expect(r.status, r.text).to.equal(200);
      expect(expectError(await refreshGrant(api, g.refresh_token), 400, 40011).error).to.equal('invalid_grant');
    });

    it('answers 200 for an unknown or already revoked token (nothing to learn from it)', async () => {
      const g = await passwordGrant(api, adminEmail, adminPassword);
      expect((await oauthRequest(api, '/v1/oauth/revoke', { token: g.access_token })).status).to.equal(200);
      expect((await oauthRequest(api, '/v1/oauth/revoke', { token: g.access_token })).status).to.equal(200);
      expect((await oauthRequest(api, '/v1/oauth/revoke', { token: 'never-issued' })).status).to.equal(200);
    });

    it('answers a request without a token with invalid_request', async () => {
      const a = await oauthRequest(api, '/v1/oauth/revoke', {});
      expect(expectError(a, 400, 40010).error).to.equal('invalid_request');
    });
  });
});

describe('HTTP: presenting an access token', () => {
  let token: string;
  const api = suiteApi({ TOKEN_TTL_S: '60' });
  before(async () => {
    token = await api.adminToken();
  });

  const meAs = async (headers: Record<string, string>, query = ''): Promise<unknown> => {
    const a = await api.get(`/v1/users/me${query}`, { headers });
    expect(a.status, a.text).to.equal(200);
    return a.json;
  };

  it('accepts the same token as Bearer, as Basic user name, and as ?access_token=', async () => {
    const viaBearer = await meAs({ Authorization: `Bearer ${token}` });
    expect(viaBearer).to.include({ email: adminEmail });
    expect(await meAs({ Authorization: basic(token) })).to.deep.equal(viaBearer);
    expect(await meAs({}, `?access_token=${encodeURIComponent(token)}`)).to.deep.equal(viaBearer);
  });

  it('takes the auth scheme case-insensitively', async () => {
    expect(await meAs({ Authorization: `bearer ${token}` })).to.include({ email: adminEmail });
    expect(await meAs({ Authorization: basic(token).replace('Basic', 'BASIC') })).to.include({ email: adminEmail });
  });

  it('works for writes too, with the token in the query', async () => {
    const customer = await api.userWithToken('customer');
    const a = await api.post(`/v1/tickets?access_token=${encodeURIComponent(customer.token)}`, {
      subject: 'Query token',
    });
    expect(a.status, a.text).to.equal(201);
    expect((a.json as { customer: { id: number } }).customer.id).to.equal(customer.id);
  });

  it('answers a request without a token 401 with the Bearer challenge', async () => {
    for (const path of ['/v1/users/me', '/v1/tickets', '/v1/groups']) {
      const a = await api.get(path);
      const body = expectUnauthorized(a);
      expect(a.header('www-authenticate'), path).to.equal('Bearer realm="support"');
      expect(body.code).to.equal(40101);
    }
  });

  it('answers an unknown token 401 with error="invalid_token", however it is sent', async () => {
    const bogus = 'A'.repeat(43);
    for (const headers of [{ Authorization: `Bearer ${bogus}` }, { Authorization: basic(bogus) }]) {
      const a = await api.get('/v1/users/me', { headers });
      expectUnauthorized(a);
      expect(a.header('www-authenticate')).to.include('error="invalid_token"');
    }
    const q = await api.get(`/v1/users/me?access_token=${bogus}`);
    expectUnauthorized(q);
    expect(q.header('www-authenticate')).to.include('error="invalid_token"');
  });

  it('answers unusable credentials 401: Basic with a password, another scheme, an empty Bearer or access_token', async () => {
    const cases: Record<string, string>[] = [
      { Authorization: basic(token, 'secret') },
      { Authorization: basic(adminEmail, adminPassword) },
      { Authorization: `Digest username="${adminEmail}"` },
      { Authorization: 'Bearer' },
      { Authorization: 'Bearer ' },
    ];
    for (const headers of cases) expectUnauthorized(await api.get('/v1/users/me', { headers }));
    expectUnauthorized(await api.get('/v1/users/me?access_token='));
  });

  it('refuses a token sent two ways at once (RFC 6750 §2)', async () => {
    const a = await api.get(`/v1/users/me?access_token=${encodeURIComponent(token)}`, { token });
    expect(a.status, a.text).to.be.oneOf([400, 401]);
    expect(a.header('www-authenticate')).to.match(/^Bearer realm="support"/);
    const twice = await api.get(
      `/v1/users/me?access_token=${encodeURIComponent(token)}&access_token=${encodeURIComponent(token)}`,
    );
    expect(twice.status, twice.text).to.be.oneOf([400, 401]);
  });

  it('does not set or read cookies', async () => {
    const a = await api.get('/v1/users/me', { token });
    expect(a.header('set-cookie')).to.equal(undefined);
    expectUnauthorized(await api.get('/v1/users/me', { headers: { Cookie: `access_token=${token}` } }));
  });

  // Last in this block: it moves the clock past the lifetime of every token issued so far.
  it('answers 401 once the token has outlived TOKEN_TTL_S, and a refresh still works', async () => {
    const g = await passwordGrant(api, adminEmail, adminPassword);
    expect(g.expires_in).to.equal(60);
    api.clock.advance(59_000);
    expect((await api.get('/v1/users/me', { token: g.access_token })).status).to.equal(200);
    api.clock.advance(1_001);
    for (const headers of [{ Authorization: `Bearer ${g.access_token}` }, { Authorization: basic(g.access_token) }]) {
      const a = await api.get('/v1/users/me', { headers });
      expectUnauthorized(a);
      expect(a.header('www-authenticate')).to.include('error="invalid_token"');
    }
    expectUnauthorized(await api.get(`/v1/users/me?access_token=${g.access_token}`));
    // The refresh token lives longer than the access token.
    const next = grantOf(await refreshGrant(api, g.refresh_token));
    expect((await api.get('/v1/users/me', { token: next.access_token })).status).to.equal(200);
  });
});
