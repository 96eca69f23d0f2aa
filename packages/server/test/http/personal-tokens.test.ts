import { expect } from 'chai';
import { adminEmail, adminPassword, type Answer } from '../support/harness.js';
import { suiteApi } from '../support/suite-api.js';
import { expectError } from '../support/oauth.js';
import { arr, createTicket, idOf, obj, patchJson, pathOf, type Json } from '../support/resources.js';

// Personal access tokens over HTTPS (contract §8.1): made once and shown once, used as any
// token, narrowed by scopes, revoked at once (by its owner, an admin, RFC 7009, the user's
// deletion or an admin's password reset), last_used_at written at most once a minute.

const tokenFormat = /^stp_[0-9A-Za-z]{46}$/;
const dayMs = 86_400_000;

interface Made {
  readonly id: number;
  readonly token: string;
  readonly body: Json;
}

describe('HTTP: personal access tokens (contract §8.1)', () => {
  let admin: string;
  let agent: { id: number; token: string };
  let customer: { id: number; token: string };

  const make = async (login: string, body: Json): Promise<Made> => {
    const a = await api.post('/v1/users/me/tokens', body, { token: login });
    expect(a.status, a.text).to.equal(201);
    const b = obj(a);
    return { id: b.id as number, token: b.token as string, body: b };
  };

  const api = suiteApi();
  before(async () => {
    admin = await api.adminToken();
    agent = await api.userWithToken('agent', 'Ansel Agent');
    customer = await api.userWithToken('customer', 'Cleo Customer');
  });

  it('is made once: 201 with the token (stp_ format), Location and no-store; never shown again', async () => {
    const a = await api.post(
      '/v1/users/me/tokens',
      { name: 'CRM sync', scopes: ['tickets:read', 'events:read'] },
      { token: agent.token },
    );
    expect(a.status, a.text).to.equal(201);
    const b = obj(a);
    expect(b.token).to.match(tokenFormat);
    expect(b).to.include({ name: 'CRM sync', last_used_at: null });
    expect(b.scopes).to.deep.equal(['tickets:read', 'events:read']);
    expect(Date.parse(b.expires_at as string) - Date.parse(b.created_at as string)).to.equal(90 * dayMs);
    expect(a.header('cache-control')).to.equal('no-store');
    expect(a.header('location')).to.equal(b.url);
    const one = await api.get(pathOf(b.url), { token: agent.token });
    expect(obj(one)).to.not.have.property('token');
    expect(obj(one).id).to.equal(b.id);
    const list = arr(await api.get('/v1/users/me/tokens', { token: agent.token }));
    expect(list.map((t) => t.id)).to.include(b.id);
    expect(JSON.stringify(list)).to.not.include(b.token);
  });

  it('refuses a bad body: empty scopes, an unknown scope, a blank name, an expiry past or beyond 366 days', async () => {
    const now = api.clock.now();
    for (const [body, field] of [
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ name: 'x', scopes: ['tickets:admin'] }, 'scopes'],
      [{ name: '  ', scopes: ['tickets:read'] }, 'name'],
      [{ name: 'x', scopes: ['tickets:read'], expires_at: new Date(now - 1000).toISOString() }, 'expires_at'],
      [{ name: 'x', scopes: ['tickets:read'], expires_at: new Date(now + 367 * dayMs).toISOString() }, 'expires_at'],
      [{ name: 'x', scopes: ['tickets:read'], expires_at: 'tomorrow' }, 'expires_at'],
      [{ name: 'x', scopes: ['tickets:read'], token: 'stp_mine' }, 'token'],
    ] as const) {
      const a = await api.post('/v1/users/me/tokens', body, { token: agent.token });
      expect(a.status, JSON.stringify(body)).to.equal(422);
      expect(JSON.stringify(a.json), JSON.stringify(body)).to.include(`"field":"${field}`);
    }
  });

  it('is used as any token (Bearer, Basic, access_token), with its scopes, and names itself on the events it causes', async () => {
    const { token, id } = await make(agent.token, { name: 'Triage bot', scopes: ['tickets:write'] });
    const t = await createTicket(api, token, { subject: 'From the bot', customer_id: customer.id });
    const basic = `Basic ${Buffer.from(`${token}:`).toString('base64')}`;
    for (const a of [
      await api.get(`/v1/tickets/${String(t.id)}`, { token }),
      await api.get(`/v1/tickets/${String(t.id)}`, { headers: { Authorization: basic } }),
      await api.get(`/v1/tickets/${String(t.id)}?access_token=${token}`),
    ]) {
      expect(a.status, a.text).to.equal(200);
      expect(a.header('x-oauth-scopes')).to.equal('tickets:write');
      expect(a.header('x-accepted-oauth-scopes')).to.equal('tickets:read');
    }
    const refused = await api.get('/v1/users', { token });
    expectError(refused, 403, 40303);
    expect(refused.header('www-authenticate')).to.include('error="insufficient_scope", scope="users:read"');
    const events = arr(await api.get(`/v1/events?actor_id=${String(agent.id)}&per_page=100`, { token: admin }));
    const created = events.find((e) => e.type === 'ticket.created' && (e.resource as Json).id === t.id);
    expect(created?.actor).to.deep.equal({
      type: 'user',
      id: agent.id,
      url: `${api.origin}/v1/users/${String(agent.id)}`,
      token: { id, name: 'Triage bot' },
    });
  });

  it('cannot mint, list or revoke tokens (403); GET /v1/users/me needs no scope', async () => {
    const { token } = await make(customer.token, { name: 'Reader', scopes: ['tickets:read'] });
    expectError(
      await api.post('/v1/users/me/tokens', { name: 'Child', scopes: ['tickets:read'] }, { token }),
      403,
      40301,
    );
    expectError(await api.get('/v1/users/me/tokens', { token }), 403, 40301);
    const me = await api.get('/v1/users/me', { token });
    expect(obj(me).id).to.equal(customer.id);
    expect(me.header('x-accepted-oauth-scopes')).to.equal('');
  });

  it('refuses a mistyped token (checksum) and an unknown one: 401', async () => {
    const { token } = await make(agent.token, { name: 'Typo', scopes: ['tickets:read'] });
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    for (const bad of [`${token.slice(0, -1)}${last}`, token.slice(0, -1), `stp_${'a'.repeat(46)}`])
      expectError(await api.get('/v1/users/me', { token: bad }), 401, 40102);
  });

  it("is revoked at once by its owner, an admin, RFC 7009 revocation, the user's deletion, and an admin setting the password", async () => {
    const victim = await api.userWithToken('agent', 'Vic Victim');
    const use = (token: string): Promise<Answer> => api.get('/v1/users/me', { token });
    const owned = await make(victim.token, { name: 'a', scopes: ['tickets:read'] });
    expect(
      (await api.request('DELETE', `/v1/users/me/tokens/${String(owned.id)}`, { token: victim.token })).status,
    ).to.equal(200);
    expectError(await use(owned.token), 401, 40102);
    expectError(await api.get(`/v1/users/me/tokens/${String(owned.id)}`, { token: victim.token }), 404, 40402);

    const byAdmin = await make(victim.token, { name: 'b', scopes: ['tickets:read'] });
    expect(arr(await api.get(`/v1/users/${String(victim.id)}/tokens`, { token: admin })).map((t) => t.id)).to.include(
      byAdmin.id,
    );
    expectError(await api.get(`/v1/users/${String(victim.id)}/tokens`, { token: agent.token }), 403, 40301);
    expectError(await api.get(`/v1/users/${String(victim.id)}/tokens`, { token: customer.token }), 404, 40402);
    expect(
      (await api.request('DELETE', `/v1/users/${String(victim.id)}/tokens/${String(byAdmin.id)}`, { token: admin }))
        .status,
    ).to.equal(200);
    expectError(await use(byAdmin.token), 401, 40102);

    const leaked = await make(victim.token, { name: 'c', scopes: ['tickets:read'] });
    const revoke = await api.post('/v1/oauth/revoke', new URLSearchParams({ token: leaked.token }).toString(), {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(revoke.status).to.equal(200);
    expectError(await use(leaked.token), 401, 40102);

    const reset = await make(victim.token, { name: 'd', scopes: ['tickets:read'] });
    expect(
      (await patchJson(api, `/v1/users/${String(victim.id)}`, { password: 'a-new-password-1' }, admin)).status,
    ).to.equal(200);
    expectError(await use(reset.token), 401, 40102);

    const other = await api.userWithToken('customer', 'Del Deleted');
    const deleted = await make(other.token, { name: 'e', scopes: ['tickets:read'] });
    expect((await api.request('DELETE', `/v1/users/${String(other.id)}`, { token: admin })).status).to.equal(200);
    expectError(await use(deleted.token), 401, 40102);
  });

  it('writes last_used_at on first use and then at most once a minute; refuses the token once it expires', async () => {
    const made = await make(agent.token, {
      name: 'Clocked',
      scopes: ['tickets:read'],
      expires_at: new Date(api.clock.now() + 2 * dayMs).toISOString(),
    });
    const lastUsed = async (): Promise<unknown> =>
      obj(await api.get(`/v1/users/me/tokens/${String(made.id)}`, { token: agent.token })).last_used_at;
    expect(await lastUsed()).to.equal(null);
    await api.get('/v1/users/me', { token: made.token });
    const first = await lastUsed();
    expect(first).to.equal(new Date(api.clock.now()).toISOString());
    api.clock.advance(30_000);
    await api.get('/v1/users/me', { token: made.token });
    expect(await lastUsed()).to.equal(first);
    api.clock.advance(31_000);
    await api.get('/v1/users/me', { token: made.token });
    expect(await lastUsed()).to.equal(new Date(api.clock.now()).toISOString());
    api.clock.advance(2 * dayMs);
    expectError(await api.get('/v1/users/me', { token: made.token }), 401, 40102);
  });

  it('admins cannot make tokens for others (405); an id that names no token is 404', async () => {
    // A fresh login: the test before moved the clock past the first one's lifetime.
    const fresh = await api.login(adminEmail, adminPassword);
    expect(
      (
        await api.post(
          `/v1/users/${String(agent.id)}/tokens`,
          { name: 'x', scopes: ['tickets:read'] },
          { token: fresh },
        )
      ).status,
    ).to.equal(405);
    expectError(await api.get('/v1/users/me/tokens/999999', { token: fresh }), 404, 40402);
    const other = await make(fresh, { name: 'Mine', scopes: ['users:read'] });
    expectError(
      await api.get(`/v1/users/${String(agent.id)}/tokens/${String(other.id)}`, { token: fresh }),
      404,
      40402,
    );
    expect(idOf(await api.get(`/v1/users/me/tokens/${String(other.id)}`, { token: fresh }))).to.equal(other.id);
  });
});
