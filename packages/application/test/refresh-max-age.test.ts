import { expect } from 'chai';
import { leftOf, rightOf, world } from './support/world.js';

// Refresh chains end (contract §11): a login refreshed every day still ends REFRESH_MAX_AGE_S
// (90 days here, as by default) after its password grant; a new password grant starts anew.

const day = 86_400_000;

describe('use cases: a refresh chain ends 90 days after its password grant', () => {
  it('refreshed every 20 days, it works until day 90 and not after; its tokens keep the start', async () => {
    const w = await world();
    let grant = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    for (let days = 20; days < 90; days += 20) {
      w.clock.advance(20 * day);
      grant = rightOf(await w.app.auth.refreshGrant(grant.refreshToken));
    }
    // Day 80: the last refresh token may live 30 days, but not past day 90.
    w.clock.advance(10 * day - 1);
    const last = rightOf(await w.app.auth.refreshGrant(grant.refreshToken));
    w.clock.advance(1);
    const ended = leftOf(await w.app.auth.refreshGrant(last.refreshToken));
    expect(ended.error).to.equal('invalid_grant');
    rightOf(await w.app.auth.authenticate(last.accessToken));
    rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
  });

  it('a token stored before the start was kept begins its chain at its own issue', async () => {
    const w = await world();
    const grant = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    const stored = await w.ports.tokens.find(w.ports.secrets.digest(grant.refreshToken), w.clock.now());
    if (stored === null) throw new Error('no refresh token stored');
    const { authenticatedAt: _dropped, ...old } = stored;
    await w.ports.tokens.revoke(stored.hash);
    await w.ports.tokens.save({ ...old, hash: w.ports.secrets.digest('an old refresh token') });
    w.clock.advance(29 * day);
    const next = rightOf(await w.app.auth.refreshGrant('an old refresh token'));
    const kept = await w.ports.tokens.find(w.ports.secrets.digest(next.refreshToken), w.clock.now());
    expect(kept?.authenticatedAt).to.equal(stored.expiresAt - 30 * day);
  });
});
