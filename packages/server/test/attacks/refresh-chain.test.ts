import { expect } from 'chai';
import { adminEmail, adminPassword, targetSuite } from './attacker.js';

// The review found refresh chains never end (contract §11): a stolen refresh token, refreshed
// forever, was a login forever. Now a chain ends REFRESH_MAX_AGE_S after its password grant,
// however often it is refreshed. The real process, with REFRESH_MAX_AGE_S=4.

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('attack: a refresh token refreshed forever (contract §11, over HTTPS)', function () {
  this.timeout(60_000);
  const target = targetSuite({ REFRESH_MAX_AGE_S: '4' });

  it('refreshing works within REFRESH_MAX_AGE_S of the password grant, and never after', async () => {
    const refresh = (token: string) =>
      target.send('POST', '/v1/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: token } });
    const login = await target.grant(adminEmail, adminPassword);
    expect(login.status, login.text).to.equal(200);
    const started = Date.now();
    let token = (login.json as { refresh_token: string }).refresh_token;
    for (let i = 0; i < 2; i++) {
      await sleep(1000);
      const next = await refresh(token);
      expect(next.status, next.text).to.equal(200);
      token = (next.json as { refresh_token: string }).refresh_token;
    }
    await sleep(Math.max(0, started + 4500 - Date.now()));
    const ended = await refresh(token);
    expect(ended.status, ended.text).to.equal(400);
    expect((ended.json as { error: string }).error).to.equal('invalid_grant');
  });
});
