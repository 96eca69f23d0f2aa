import { expect } from 'chai';
import { targetSuite, type Problem } from './attacker.js';

// The smaller holes of the security review (contract §11), each tried against the real process
// over HTTPS: a token in ?access%5Ftoken= reached the access log in clear; embed=customer showed
// e-mail addresses to a token without users:read; IPv6 spellings of loopback passed the SSRF
// guard, whose 422 named the internal address a host resolved to; no answer carried HSTS.

describe('attack: the smaller holes (contract §11, over HTTPS)', function () {
  this.timeout(120_000);
  const target = targetSuite();

  it('a token sent as ?access%5Ftoken= never reaches the access log', async () => {
    const admin = await target.admin();
    for (const name of ['access%5Ftoken', 'access%5ftoken', 'acc%65ss_token', 'access_token']) {
      const me = await target.send('GET', `/v1/users/me?${name}=${admin}`);
      expect(me.status, `${name}: ${me.text}`).to.equal(200);
    }
    // Names that are not the token's to this API (401) but carry it all the same, as a client
    // serialising a list or an object sends it: probed, these were logged in clear.
    for (const name of [
      'access_token[]',
      'access_token%5B%5D',
      'access_token[0]',
      'access_token.x',
      'ACCESS_TOKEN[]',
    ]) {
      const me = await target.send('GET', `/v1/users/me?${name}=${admin}`);
      expect(me.status, `${name}: ${me.text}`).to.equal(401);
    }
    // The log line is written as the answer leaves: give it a moment to reach stdout.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logged = target.child.stdout();
    expect(logged).to.contain('/v1/users/me');
    expect(logged).to.contain('access_token[]=[redacted]');
    expect(logged).not.to.contain(admin);
  });

  it('embed=customer expands a user only for a token that may read users', async () => {
    const customer = await target.user('customer');
    const made = await target.send('POST', '/v1/tickets', {
      token: customer.token,
      body: { subject: 'my printer jams' },
    });
    expect(made.status, made.text).to.equal(201);
    const id = (made.json as { id: number }).id;
    const agent = await target.user('agent');
    const narrow = await target.login(agent.email, agent.password, 'tickets:read');
    const shown = await target.send('GET', `/v1/tickets/${id}?embed=customer`, { token: narrow });
    expect(shown.status, shown.text).to.equal(200);
    expect(shown.text).not.to.contain(customer.email);
    expect((shown.json as { customer: unknown }).customer).to.deep.equal({
      id: customer.id,
      url: `${target.child.url}/v1/users/${customer.id}`,
    });
    const listed = await target.send('GET', '/v1/tickets?embed=customer.email', { token: narrow });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.text).not.to.contain(customer.email);
    const reader = await target.login(agent.email, agent.password, 'tickets:read users:read');
    const whole = await target.send('GET', `/v1/tickets/${id}?embed=customer`, { token: reader });
    expect((whole.json as { customer: { email?: string } }).customer.email).to.equal(customer.email);
  });

  it("a group's members are users: GET /v1/groups/{id}/users needs users:read, as embed does", async () => {
    // Probed: a token with groups:read alone listed the members whole (names, e-mail
    // addresses, roles), while GET /v1/users/{id} with it was 403 needing users:read.
    const admin = await target.admin();
    const group = await target.send('POST', '/v1/groups', { token: admin, body: { name: 'night shift' } });
    expect(group.status, group.text).to.equal(201);
    const groupId = (group.json as { id: number }).id;
    const agent = await target.user('agent');
    const joined = await target.send('PATCH', `/v1/users/${agent.id}`, {
      token: admin,
      body: { group_ids: [groupId] },
    });
    expect(joined.status, joined.text).to.equal(200);
    const groupsOnly = await target.login(agent.email, agent.password, 'groups:read');
    const refused = await target.send('GET', `/v1/groups/${groupId}/users`, { token: groupsOnly });
    expect(refused.status, refused.text).to.equal(403);
    expect((refused.json as Problem).code).to.equal(40303);
    expect(refused.headers['www-authenticate']).to.equal(
      'Bearer realm="support", error="insufficient_scope", scope="users:read"',
    );
    expect(refused.text).not.to.contain(agent.email);
    const readsUsers = await target.login(agent.email, agent.password, 'users:read');
    const listed = await target.send('GET', `/v1/groups/${groupId}/users`, { token: readsUsers });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.headers['x-accepted-oauth-scopes']).to.equal('users:read');
    expect((listed.json as { email: string }[]).map((u) => u.email)).to.deep.equal([agent.email]);
  });

  it('the SSRF guard refuses IPv6 spellings of loopback and never names what a host resolved to', async () => {
    const admin = await target.admin();
    for (const host of [
      '[::127.0.0.1]',
      '[::ffff:0:7f00:1]',
      '[::ffff:127.0.0.1]',
      '[64:ff9b::7f00:1]',
      '[64:ff9b:1::7f00:1]',
      '[64:ff9b:1::a00:1]',
      '[::a9fe:a9fe]',
    ]) {
      const made = await target.send('POST', '/v1/webhooks', {
        token: admin,
        body: { url: `https://${host}/hook`, events: ['*'] },
      });
      expect(made.status, `${host}: ${made.text}`).to.equal(422);
    }
    const named = await target.send('POST', '/v1/webhooks', {
      token: admin,
      body: { url: 'https://localhost/hook', events: ['*'] },
    });
    expect(named.status, named.text).to.equal(422);
    expect(named.text).not.to.match(/127\.0\.0\.1|::1\b/);
  });

  it('every answer over HTTPS carries Strict-Transport-Security: max-age=31536000', async () => {
    const answers = [
      await target.send('GET', '/healthz'),
      await target.send('GET', '/v1/users/me'),
      await target.send('GET', '/v1/users/me', { token: await target.admin() }),
      await target.send('GET', '/v1/nowhere'),
      await target.send('GET', '/v1/openapi.json'),
      await target.send('POST', '/v1/tickets', { token: await target.admin(), body: '{"subject":' }),
    ];
    for (const a of answers) expect(a.headers['strict-transport-security'], a.text).to.equal('max-age=31536000');
  });
});
