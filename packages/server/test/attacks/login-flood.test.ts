import { expect } from 'chai';
import { Agent } from 'node:https';
import { reap } from '../server/child.js';
import { adminEmail, adminPassword, startTarget, type Target } from './attacker.js';

// A login flood (contract §11): every password grant costs an argon2id hash (~40 ms of a core),
// and an unbounded queue of them would make every login wait for the whole flood. The service
// hashes two at once and lets PASSWORD_HASH_QUEUE more wait; one more is answered 503 (50304)
// with Retry-After at once, and nothing is done for it: it is not a failed login either.

const queue = 1;
const flood = 40;

describe('attack: a login flood meets a bounded password queue (contract §11, over HTTPS)', function () {
  this.timeout(180_000);
  let target: Target;
  let agent: Agent;

  before(async () => {
    target = await startTarget({ PASSWORD_HASH_QUEUE: String(queue) });
    agent = new Agent({ keepAlive: true, maxSockets: flood });
  });
  after(async () => {
    agent.destroy();
    await reap(target.child);
  });

  /** One request on the kept-alive pool, so that a flood's requests arrive within milliseconds. */
  const send = (method: string, path: string, body?: unknown) => target.pooled(agent, method, path, body);
  /** Opens `flood` TLS connections first: the handshakes would otherwise spread the flood out. */
  const warm = async (): Promise<void> => {
    const answers = await Promise.all(Array.from({ length: flood }, () => send('GET', '/healthz')));
    for (const a of answers) expect(a.status).to.equal(200);
  };
  const grant = (email: string, password: string) =>
    send('POST', '/v1/oauth/token', { grant_type: 'password', username: email, password });

  it('a flood of right passwords: the excess is refused at once with 503 50304 and Retry-After, the rest log in', async () => {
    await warm();
    const answers = await Promise.all(Array.from({ length: flood }, () => grant(adminEmail, adminPassword)));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s !== 200 && s !== 503),
      statuses.join(','),
    ).to.deep.equal([]);
    const refused = answers.filter((a) => a.status === 503);
    const served = answers.filter((a) => a.status === 200);
    expect(refused.length, 'some of the flood is refused').to.be.at.least(1);
    expect(served.length, 'the queue still serves some').to.be.at.least(1);
    for (const r of refused) {
      expect((r.json as { code: number }).code).to.equal(50304);
      expect(r.headers['retry-after']).to.equal('1');
      expect(r.text, 'no stack trace or internals').not.to.match(/at .+\.js|PasswordHasherBusyError/);
    }
    for (const s of served) expect((s.json as { access_token: string }).access_token).to.be.a('string');
    // Once the flood has passed, logging in works at once: nothing stayed queued.
    const after = await grant(adminEmail, adminPassword);
    expect(after.status, after.text).to.equal(200);
  });

  it('refused guesses are not failed logins: a flood of wrong passwords does not lock the account', async () => {
    const victim = await target.user('agent');
    await warm();
    const answers = await Promise.all(Array.from({ length: flood }, (_, i) => grant(victim.email, `guess ${i}`)));
    const checked = answers.filter((a) => a.status === 400);
    const refused = answers.filter((a) => a.status === 503);
    expect(checked.length + refused.length, answers.map((a) => a.status).join(',')).to.equal(flood);
    for (const c of checked) expect((c.json as { error: string }).error).to.equal('invalid_grant');
    // The queue let few guesses through (two hashing, `queue` waiting, and those that found a
    // slot freed while the flood was still arriving): fewer than the throttle's 10 failures.
    expect(checked.length, 'guesses actually checked').to.be.below(10);
    expect(refused.length).to.equal(flood - checked.length);
    const login = await grant(victim.email, victim.password);
    expect(login.status, `the account is not locked: ${login.text}`).to.equal(200);
  });
});
