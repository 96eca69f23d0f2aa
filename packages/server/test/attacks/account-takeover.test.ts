import { expect } from 'chai';
import { targetSuite, type Problem } from './attacker.js';

// Attack 3 of the security review (contract §11): a leaked token becomes the account. PATCH
// /v1/users/me {"password": ...} needed no current password and revoked nothing: a personal
// token with users:write set a new password, logged in with every scope, and the victim's
// sessions and tokens all kept working. Now an own password change needs current_password
// (422 without, 403 when wrong, counted by the login throttle), and any password change ends
// every session and personal token of the user but the session that made an own change. And
// the login throttle: 10 failures per account in 15 minutes, from any address, then 429.

describe('attack: a leaked token takes the account over (contract §11, over HTTPS)', function () {
  this.timeout(120_000);
  const target = targetSuite();

  const tokenWith = async (login: string, scopes: string[]): Promise<string> => {
    const made = await target.send('POST', '/v1/users/me/tokens', { token: login, body: { name: 'bot', scopes } });
    expect(made.status, made.text).to.equal(201);
    return (made.json as { token: string }).token;
  };
  const works = async (token: string): Promise<boolean> =>
    (await target.send('GET', '/v1/users/me', { token })).status === 200;

  it("the review's request: a leaked users:write token sets a new password; 422, nothing changes", async () => {
    const victim = await target.user('agent');
    const leaked = await tokenWith(victim.token, ['users:write']);
    const attack = await target.send('PATCH', '/v1/users/me', {
      token: leaked,
      body: { password: 'attacker-owns-it' },
    });
    expect(attack.status, attack.text).to.equal(422);
    expect((attack.json as Problem).errors?.map((e) => [e.field, e.code])).to.deep.equal([['current_password', 42201]]);
    const put = await target.send('PUT', `/v1/users/${victim.id}`, {
      token: leaked,
      body: { name: 'x', email: victim.email, password: 'attacker-owns-it' },
    });
    expect(put.status, put.text).to.equal(422);
    expect((await target.grant(victim.email, 'attacker-owns-it')).status).to.equal(400);
    expect(await works(victim.token)).to.equal(true);
    expect(await works(leaked)).to.equal(true);
  });

  it('a wrong current_password is 403 (40304) and counts as a failed login: after 10, 429 with Retry-After', async () => {
    const victim = await target.user('customer');
    const leaked = await tokenWith(victim.token, ['users:write']);
    for (let i = 0; i < 10; i++) {
      const guess = await target.send('PATCH', '/v1/users/me', {
        token: leaked,
        body: { password: 'attacker-owns-it', current_password: `guess ${i}` },
      });
      expect(guess.status, guess.text).to.equal(403);
      expect((guess.json as Problem).code).to.equal(40304);
    }
    const right = await target.send('PATCH', '/v1/users/me', {
      token: leaked,
      body: { password: 'attacker-owns-it', current_password: victim.password },
    });
    expect(right.status, right.text).to.equal(429);
    expect((right.json as Problem).code).to.equal(42903);
    expect(Number(right.headers['retry-after'])).to.be.within(1, 1800);
    const login = await target.grant(victim.email, victim.password);
    expect(login.status, 'the password grant is locked too').to.equal(429);
    expect(await works(victim.token), 'nothing was revoked').to.equal(true);
  });

  it('an own change keeps only the session that made it; every other login, refresh and personal token ends', async () => {
    const victim = await target.user('agent');
    const other = await target.grant(victim.email, victim.password);
    const { access_token: otherAccess, refresh_token: otherRefresh } = other.json as {
      access_token: string;
      refresh_token: string;
    };
    const bot = await tokenWith(victim.token, ['tickets:read']);
    const changed = await target.send('PATCH', '/v1/users/me', {
      token: victim.token,
      body: { password: 'a brand new password', current_password: victim.password },
    });
    expect(changed.status, changed.text).to.equal(200);
    expect(await works(victim.token), 'the session that changed it').to.equal(true);
    expect(await works(otherAccess), 'another login').to.equal(false);
    expect(await works(bot), 'a personal token').to.equal(false);
    const refreshed = await target.send('POST', '/v1/oauth/token', {
      body: { grant_type: 'refresh_token', refresh_token: otherRefresh },
    });
    expect(refreshed.status, 'its refresh token').to.equal(400);
    expect((await target.grant(victim.email, victim.password)).status, 'the old password').to.equal(400);
    expect((await target.grant(victim.email, 'a brand new password')).status).to.equal(200);
  });

  it("an admin's change ends every session and token of the user", async () => {
    const victim = await target.user('agent');
    const bot = await tokenWith(victim.token, ['tickets:read']);
    const set = await target.send('PATCH', `/v1/users/${victim.id}`, {
      token: await target.admin(),
      body: { password: 'set by the admin' },
    });
    expect(set.status, set.text).to.equal(200);
    expect(await works(victim.token)).to.equal(false);
    expect(await works(bot)).to.equal(false);
  });

  it('the login throttle: 10 failures for an account, then 429 for it (right password too), alike for an unknown one', async () => {
    const victim = await target.user('customer');
    for (let i = 0; i < 10; i++) expect((await target.grant(victim.email, `wrong ${i}`)).status).to.equal(400);
    const locked = await target.grant(victim.email, victim.password);
    expect(locked.status, locked.text).to.equal(429);
    for (let i = 0; i < 10; i++) expect((await target.grant('nobody@example.com', `wrong ${i}`)).status).to.equal(400);
    const unknown = await target.grant('nobody@example.com', 'anything');
    expect(unknown.status).to.equal(429);
    const strip = (a: typeof locked) => ({
      body: { ...(a.json as object), description: undefined },
      retryAfter: typeof a.headers['retry-after'],
    });
    expect(strip(unknown), 'the same answer whether or not the account exists').to.deep.equal(strip(locked));
    expect((await target.grant(victim.email.toUpperCase(), victim.password)).status).to.equal(429);
    const bystander = await target.user('customer');
    expect((await target.grant(bystander.email, bystander.password)).status, 'others are unaffected').to.equal(200);
  });
});
