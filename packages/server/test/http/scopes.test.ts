import { expect } from 'chai';
import { adminEmail, adminPassword } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { expectError, grantOf, oauthRequest, refreshGrant } from '../support/oauth.js';
import { createTicket, idOf, obj } from '../support/resources.js';

// Scopes on login tokens (contract §8.2): the password grant's optional scope narrows a
// token; a request needs its role AND a scope that covers the operation; outside them 403
// (40303) with WWW-Authenticate insufficient_scope; X-OAuth-Scopes / X-Accepted-OAuth-Scopes
// on every answer to a narrowed token. The response cache never answers for a narrower token.

interface ScopedGrant {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly scope: string;
}

describe('HTTP: scopes on login tokens (contract §8.2)', () => {
  let admin: string;
  const customer = { email: 'scoped-customer@example.com', password: 'customer-password-1', id: 0 };

  const login = async (email: string, password: string, scope: string): Promise<ScopedGrant> =>
    grantOf(
      await oauthRequest(api, '/v1/oauth/token', { grant_type: 'password', username: email, password, scope }),
    ) as unknown as ScopedGrant;

  const api = suiteApi();
  before(async () => {
    admin = await api.adminToken();
    const c = await api.post(
      '/v1/users',
      { name: 'Scoped Customer', email: customer.email, password: customer.password, role: 'customer' },
      { token: admin },
    );
    customer.id = idOf(c);
  });

  it('narrows a login to the scopes asked for that its role can use, and says so in scope; a refresh keeps them', async () => {
    const g = await login(adminEmail, adminPassword, 'tickets:read events:read');
    expect(g.scope).to.equal('tickets:read events:read');
    const c = await login(customer.email, customer.password, 'groups:read tickets:read webhooks:manage');
    expect(c.scope, 'scopes never widen a role').to.equal('tickets:read');
    const refreshed = grantOf(await refreshGrant(api, g.refresh_token)) as unknown as ScopedGrant;
    expect(refreshed.scope).to.equal('tickets:read events:read');
    expectError(
      await api.post('/v1/tickets', { subject: 'x', customer_id: customer.id }, { token: refreshed.access_token }),
      403,
      40303,
    );
  });

  it('refuses an unknown scope, an empty one, or none the role can use: 400 invalid_scope', async () => {
    for (const [email, password, scope] of [
      [adminEmail, adminPassword, 'tickets:read tickets:admin'],
      [adminEmail, adminPassword, '  '],
      [customer.email, customer.password, 'webhooks:manage groups:read'],
    ] as const) {
      const a = await oauthRequest(api, '/v1/oauth/token', {
        grant_type: 'password',
        username: email,
        password,
        scope,
      });
      expect(expectError(a, 400, 40013).error).to.equal('invalid_scope');
    }
  });

  it('outside its scopes: 403 40303 with WWW-Authenticate insufficient_scope naming what is needed; nothing changes', async () => {
    const t = await createTicket(api, admin, { subject: 'Read only', customer_id: customer.id });
    const reader = (await login(adminEmail, adminPassword, 'tickets:read')).access_token;
    const refused = await api.request('PATCH', `/v1/tickets/${String(t.id)}`, {
      token: reader,
      body: { subject: 'Changed' },
    });
    const e = expectError(refused, 403, 40303);
    expect(e.description).to.include('tickets:write');
    expect(refused.header('www-authenticate')).to.equal(
      'Bearer realm="support", error="insufficient_scope", scope="tickets:write"',
    );
    expect(refused.header('x-oauth-scopes')).to.equal('tickets:read');
    expect(refused.header('x-accepted-oauth-scopes')).to.equal('tickets:write');
    expect(obj(await api.get(`/v1/tickets/${String(t.id)}`, { token: admin })).subject).to.equal('Read only');
    expectError(await api.get('/v1/users', { token: reader }), 403, 40303);
    expectError(await api.get('/v1/events', { token: reader }), 403, 40303);
  });

  it('a :write scope includes its :read; GET /v1/users/me needs none; the role still decides inside a scope', async () => {
    const writer = (await login(adminEmail, adminPassword, 'tickets:write')).access_token;
    const t = await createTicket(api, writer, { subject: 'Written', customer_id: customer.id });
    const read = await api.get(`/v1/tickets/${String(t.id)}`, { token: writer });
    expect(read.status).to.equal(200);
    expect(read.header('x-accepted-oauth-scopes')).to.equal('tickets:read');
    const me = await api.get('/v1/users/me', { token: writer });
    expect(me.status).to.equal(200);
    expect(me.header('x-oauth-scopes')).to.equal('tickets:write');
    expect(me.header('x-accepted-oauth-scopes')).to.equal('');
    // A customer's tickets:write does not let them delete: the role matrix still answers 403 (40301).
    const c = (await login(customer.email, customer.password, 'tickets:write')).access_token;
    expectError(await api.request('DELETE', `/v1/tickets/${String(t.id)}`, { token: c }), 403, 40301);
  });

  it('a login without scope has no scope headers; its cached answer is never replayed to a narrower token (not even as a 304)', async () => {
    const t = await createTicket(api, admin, { subject: 'Cached', customer_id: customer.id });
    const path = `/v1/tickets/${String(t.id)}`;
    const full = await api.get(path, { token: admin });
    expect(full.status).to.equal(200);
    expect(full.header('x-oauth-scopes')).to.equal(undefined);
    const etag = full.header('etag') ?? '';
    const narrow = (await login(adminEmail, adminPassword, 'users:read')).access_token;
    for (const headers of [{}, { 'If-None-Match': etag }]) {
      const a = await api.get(path, { token: narrow, headers });
      expectError(a, 403, 40303);
      expect(a.header('etag')).to.equal(undefined);
    }
    // Nor the other way: the refusal was not kept as the ticket's answer.
    const again = await api.get(path, { token: admin, headers: { 'If-None-Match': etag } });
    expect(again.status).to.equal(304);
    const lane = await api.get(`${path}?fields=subject`, { token: narrow });
    expectError(lane, 403, 40303);
    expect(lane.header('x-accepted-oauth-scopes')).to.equal('tickets:read');
  });
});
