import { expect } from 'chai';
import { adminEmail, adminPassword } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { expectError, grantOf, oauthRequest, passwordGrant, type Grant } from '../support/oauth.js';

// Contract §3: the OAuth 2 token endpoint (RFC 6749 password and refresh_token grants),
// revocation (RFC 7009), and the three ways to present an access token.

const base64url = /^[A-Za-z0-9_-]+$/;

describe('HTTP: POST /v1/oauth/token', () => {
  const api = suiteApi();

  const me = (token: string) => api.get('/v1/users/me', { token });

  for (const encoding of ['form', 'json'] as const) {
    it(`issues a bearer token for the password grant with a ${encoding === 'form' ? 'form-urlencoded' : 'JSON'} body`, async () => {
      const a = await oauthRequest(
        api,
        '/v1/oauth/token',
        { grant_type: 'password', username: adminEmail, password: adminPassword },
        encoding,
      );
      expect(a.status, a.text).to.equal(200);
      expect(a.header('cache-control')).to.equal('no-store');
      expect(a.header('etag')).to.equal(undefined);
      const g = a.json as Grant;
      expect(g).to.have.all.keys('access_token', 'token_type', 'expires_in', 'refresh_token', 'scope');
      expect((g as unknown as { scope: string }).scope, 'an admin login holds every scope').to.equal(
        'tickets:read tickets:write users:read users:write groups:read groups:write events:read webhooks:manage',
      );
      expect(g.token_type).to.equal('bearer');
      expect(g.expires_in).to.equal(86_400);
      // At least 256 random bits, base64url: 43 characters or more.
      for (const t of [g.access_token, g.refresh_token]) {
        expect(t).to.match(base64url);
        expect(t.length).to.be.at.least(43);
      }
      expect(g.access_token).to.not.equal(g.refresh_token);
      const read = await me(g.access_token);
      expect(read.status, read.text).to.equal(200);
      expect(read.json).to.include({ email: adminEmail, role: 'admin' });
    });
  }

  it('accepts a form body whose Content-Type names a charset', async () => {
    const body = new URLSearchParams({
      grant_type: 'password',
      username: adminEmail,
      password: adminPassword,
    }).toString();
    const a = await api.post('/v1/oauth/token', body, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    });
    expect(grantOf(a).token_type).to.equal('bearer');
  });

  it('issues a fresh token on every login', async () => {
    const a = await passwordGrant(api, adminEmail, adminPassword);
    const b = await passwordGrant(api, adminEmail, adminPassword);
    expect(a.access_token).to.not.equal(b.access_token);
    expect(a.refresh_token).to.not.equal(b.refresh_token);
    expect((await me(a.access_token)).status).to.equal(200);
    expect((await me(b.access_token)).status).to.equal(200);
  });

  it('answers an unknown user exactly like a wrong password (invalid_grant, no-store)', async () => {
    const unknown = await oauthRequest(api, '/v1/oauth/token', {
      grant_type: 'password',
      username: 'nobody@example.com',
      password: adminPassword,
    });
    const wrong = await oauthRequest(api, '/v1/oauth/token', {
      grant_type: 'password',
      username: adminEmail,
      password: 'not-the-password',
    });
    const body = expectError(unknown, 400, 40011);
    expect(body.error).to.equal('invalid_grant');
    expect(body.error_description).to.be.a('string').and.not.empty;
    expect(wrong.status).to.equal(unknown.status);
    expect(wrong.json).to.deep.equal(unknown.json);
    for (const a of [unknown, wrong]) {
      expect(a.header('cache-control')).to.equal('no-store');
      expect(a.header('www-authenticate')).to.equal(undefined);
    }
  });

  it('compares e-mail addresses case-insensitively at login', async () => {
    const g = await passwordGrant(api, adminEmail.toUpperCase(), adminPassword);
    expect((await me(g.access_token)).status).to.equal(200);
  });

  it('answers a missing grant_type with invalid_request', async () => {
    for (const encoding of ['form', 'json'] as const) {
      const a = await oauthRequest(api, '/v1/oauth/token', { username: adminEmail, password: adminPassword }, encoding);
      const body = expectError(a, 400, 40010);
      expect(body.error).to.equal('invalid_request');
      expect(a.header('cache-control')).to.equal('no-store');
    }
  });

  it('answers an unsupported grant_type with unsupported_grant_type', async () => {
    for (const grantType of ['client_credentials', 'authorization_code', 'PASSWORD']) {
      const a = await oauthRequest(api, '/v1/oauth/token', {
        grant_type: grantType,
        username: adminEmail,
        password: adminPassword,
      });
      const body = expectError(a, 400, 40012);
      expect(body.error, grantType).to.equal('unsupported_grant_type');
    }
  });

  it('answers a password grant without username or password with invalid_request', async () => {
    const noPassword = await oauthRequest(api, '/v1/oauth/token', { grant_type: 'password', username: adminEmail });
    expect(expectError(noPassword, 400, 40010).error).to.equal('invalid_request');
    const noUser = await oauthRequest(
      api,
      '/v1/oauth/token',
      { grant_type: 'password', password: adminPassword },
      'json',
    );
    expect(expectError(noUser, 400, 40010).error).to.equal('invalid_request');
  });

  it('answers a parameter sent twice with invalid_request (RFC 6749 §3.2)', async () => {
    const body = `grant_type=password&username=${encodeURIComponent(adminEmail)}&password=${encodeURIComponent(adminPassword)}&password=other`;
    const a = await api.post('/v1/oauth/token', body, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(expectError(a, 400, 40010).error).to.equal('invalid_request');
  });

  it('answers a body that is neither form nor JSON with 415 carrying the RFC 6749 error', async () => {
    const a = await api.post(
      '/v1/oauth/token',
      `grant_type=password&username=${adminEmail}&password=${adminPassword}`,
      { headers: { 'Content-Type': 'text/plain' } },
    );
    expect(expectError(a, 415, 41501).error).to.equal('invalid_request');
  });

  it('never takes a token for a credential at the token endpoint', async () => {
    const { access_token } = await passwordGrant(api, adminEmail, adminPassword);
    const a = await oauthRequest(api, '/v1/oauth/token', {
      grant_type: 'password',
      username: adminEmail,
      password: access_token,
    });
    expect(expectError(a, 400, 40011).error).to.equal('invalid_grant');
  });
});
