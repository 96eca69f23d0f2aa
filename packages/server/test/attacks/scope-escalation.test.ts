import { expect } from 'chai';
import { adminEmail, adminPassword, targetSuite, type Problem } from './attacker.js';

// Attack 2 of the security review (contract §11): a narrowed token widens itself. A login
// token with scope=tickets:read minted a personal token with tickets:write users:write
// groups:write events:read webhooks:manage (201), which then wrote. Now a new token's scopes
// must lie within the asking login token's scopes and the role's (else 422 naming scopes), and
// a user holds at most 100 personal tokens that have not expired.

describe('attack: a narrowed token mints a wider one (contract §11, over HTTPS)', function () {
  this.timeout(120_000);
  const target = targetSuite();

  it("the review's request: a tickets:read login asks for a token that writes; 422 naming scopes, nothing made", async () => {
    const narrowed = await target.login(adminEmail, adminPassword, 'tickets:read');
    const asked = await target.send('POST', '/v1/users/me/tokens', {
      token: narrowed,
      body: {
        name: 'wider',
        scopes: ['tickets:write', 'users:write', 'groups:write', 'events:read', 'webhooks:manage'],
      },
    });
    expect(asked.status, asked.text).to.equal(422);
    const problem = asked.json as Problem;
    expect(problem.errors?.map((e) => [e.field, e.code])).to.deep.equal([['scopes', 42210]]);
    expect(problem.errors?.[0]?.message).to.match(/this login token can give tickets:read\)$/);
    expect(JSON.stringify(asked.json)).to.not.match(/stp_/);
    const listed = await target.send('GET', '/v1/users/me/tokens', { token: await target.admin() });
    expect(listed.json).to.deep.equal([]);
  });

  it('within its scopes it may mint (tickets:read, or less than tickets:write); the token then cannot write', async () => {
    const narrowed = await target.login(adminEmail, adminPassword, 'tickets:write');
    const made = await target.send('POST', '/v1/users/me/tokens', {
      token: narrowed,
      body: { name: 'reader', scopes: ['tickets:read'] },
    });
    expect(made.status, made.text).to.equal(201);
    const pat = (made.json as { token: string }).token;
    const write = await target.send('POST', '/v1/tickets', { token: pat, body: { subject: 'x', customer_id: 1 } });
    expect(write.status).to.equal(403);
    expect(String(write.headers['www-authenticate'])).to.match(/insufficient_scope/);
    const wider = await target.send('POST', '/v1/users/me/tokens', {
      token: narrowed,
      body: { name: 'wider', scopes: ['tickets:read', 'users:read'] },
    });
    expect(wider.status, wider.text).to.equal(422);
  });

  it("a role's limits hold too: a customer cannot mint groups:read or webhooks:manage", async () => {
    const customer = await target.user('customer');
    const asked = await target.send('POST', '/v1/users/me/tokens', {
      token: customer.token,
      body: { name: 'x', scopes: ['groups:read', 'webhooks:manage'] },
    });
    expect(asked.status, asked.text).to.equal(422);
    expect((asked.json as Problem).errors?.map((e) => e.field)).to.deep.equal(['scopes']);
  });

  it('at most 100 personal tokens per user: the 101st is 422 (limit_reached)', async () => {
    const agent = await target.user('agent');
    for (let i = 0; i < 100; i++) {
      const made = await target.send('POST', '/v1/users/me/tokens', {
        token: agent.token,
        body: { name: `bot ${i}`, scopes: ['tickets:read'] },
      });
      expect(made.status, made.text).to.equal(201);
    }
    const refused = await target.send('POST', '/v1/users/me/tokens', {
      token: agent.token,
      body: { name: 'bot 101', scopes: ['tickets:read'] },
    });
    expect(refused.status, refused.text).to.equal(422);
    expect((refused.json as Problem).errors?.map((e) => [e.field, e.code])).to.deep.equal([['', 42211]]);
  });
});
