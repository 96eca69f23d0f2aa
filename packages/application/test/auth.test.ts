import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, leftOf, rightOf, world } from './support/world.js';

describe('auth', () => {
  it('issues a bearer token pair for the right password and authenticates with it', async () => {
    const w = await world({ tokenTtl: 600 });
    const grant = rightOf(await w.app.auth.passwordGrant('ADMIN@example.com', 'admin-password'));
    expect(grant).to.include({ tokenType: 'bearer', expiresIn: 600 });
    expect(rightOf(await w.app.auth.authenticate(grant.accessToken)).user.id).to.equal(w.admin.user.id);
  });

  it('answers unknown user and wrong password identically', async () => {
    const w = await world();
    const unknown = leftOf(await w.app.auth.passwordGrant('nobody@example.com', 'admin-password'));
    const wrong = leftOf(await w.app.auth.passwordGrant('admin@example.com', 'wrong'));
    expect(unknown).to.deep.equal(wrong);
    expect(unknown._tag === 'OAuthError' && unknown.error).to.equal('invalid_grant');
  });

  it('stores tokens only as hashes', async () => {
    const w = await world();
    const grant = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    expect(await w.ports.tokens.find(grant.accessToken, w.clock.now())).to.equal(null);
    expect(await w.ports.tokens.find(w.ports.secrets.digest(grant.accessToken), w.clock.now())).to.include({
      kind: 'access',
    });
  });

  it('expires access tokens after their lifetime', async () => {
    const w = await world({ tokenTtl: 60 });
    const grant = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    w.clock.advance(59_000);
    expect(E.isRight(await w.app.auth.authenticate(grant.accessToken))).to.equal(true);
    w.clock.advance(1_000);
    expect(leftOf(await w.app.auth.authenticate(grant.accessToken))).to.deep.equal({
      _tag: 'Unauthenticated',
      reason: 'invalid',
    });
  });

  it('refuses missing tokens and refresh tokens used as access tokens', async () => {
    const w = await world();
    expect(leftOf(await w.app.auth.authenticate(null))).to.deep.equal({ _tag: 'Unauthenticated', reason: 'missing' });
    const grant = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    expect(leftOf(await w.app.auth.authenticate(grant.refreshToken))._tag).to.equal('Unauthenticated');
  });

  it('rotates refresh tokens; a reused one revokes the whole family', async () => {
    const w = await world();
    const first = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    const second = rightOf(await w.app.auth.refreshGrant(first.refreshToken));
    expect(second.refreshToken).not.to.equal(first.refreshToken);
    expect(E.isRight(await w.app.auth.authenticate(second.accessToken))).to.equal(true);
    // The first refresh token is replayed: someone else has it.
    expect(leftOf(await w.app.auth.refreshGrant(first.refreshToken)).error).to.equal('invalid_grant');
    expect(E.isLeft(await w.app.auth.authenticate(second.accessToken))).to.equal(true);
    expect(E.isLeft(await w.app.auth.authenticate(first.accessToken))).to.equal(true);
    expect(E.isLeft(await w.app.auth.refreshGrant(second.refreshToken))).to.equal(true);
  });

  it('does not accept an access token as a refresh token', async () => {
    const w = await world();
    const grant = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    expect(leftOf(await w.app.auth.refreshGrant(grant.accessToken)).error).to.equal('invalid_grant');
    expect(E.isRight(await w.app.auth.authenticate(grant.accessToken)), 'the access token still works').to.equal(true);
  });

  it('revokes access tokens, and refresh tokens with their family', async () => {
    const w = await world();
    const a = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    await w.app.auth.revoke(a.accessToken);
    expect(E.isLeft(await w.app.auth.authenticate(a.accessToken))).to.equal(true);
    expect(E.isRight(await w.app.auth.refreshGrant(a.refreshToken))).to.equal(true);
    const b = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    await w.app.auth.revoke(b.refreshToken);
    expect(E.isLeft(await w.app.auth.authenticate(b.accessToken))).to.equal(true);
    await w.app.auth.revoke('never-issued');
  });

  it("an admin setting a user's password ends that user's sessions", async () => {
    const w = await world();
    const alice = await w.customer();
    const grant = rightOf(await w.app.auth.passwordGrant(alice.user.email, 'password-1'));
    rightOf(await w.app.users.patch(w.admin, alice.user.id, decoded({ password: 'reset by admin' })));
    expect(E.isLeft(await w.app.auth.authenticate(grant.accessToken))).to.equal(true);
    expect(E.isRight(await w.app.auth.passwordGrant(alice.user.email, 'reset by admin'))).to.equal(true);
  });
});

describe('rate limiting', () => {
  it('counts per user across their tokens, and per IP at a tenth of the limit', async () => {
    const w = await world({ rateLimit: 25 });
    const alice = await w.customer();
    const statuses = [];
    for (let i = 0; i < 26; i++) statuses.push(await w.app.rateLimit.consume({ kind: 'user', userId: alice.user.id }));
    expect(statuses[0]).to.include({ allowed: true, limit: 25, remaining: 24 });
    expect(statuses[24]).to.include({ allowed: true, remaining: 0 });
    expect(statuses[25]).to.include({ allowed: false, remaining: 0 });
    const ip = [];
    for (let i = 0; i < 4; i++) ip.push(await w.app.rateLimit.consume({ kind: 'ip', ip: '10.0.0.1' }));
    expect(ip.map((s) => s.allowed)).to.deep.equal([true, true, true, false]);
    expect(ip[0]?.limit).to.equal(3);
  });

  it('reports the seconds left in the window and starts afresh in the next one', async () => {
    const w = await world({ rateLimit: 1 });
    w.clock.set(Date.UTC(2026, 0, 1, 0, 0, 15));
    const first = await w.app.rateLimit.consume({ kind: 'ip', ip: '::1' });
    expect(first).to.include({ allowed: true, resetSeconds: 45 });
    expect((await w.app.rateLimit.consume({ kind: 'ip', ip: '::1' })).allowed).to.equal(false);
    w.clock.advance(45_000);
    expect((await w.app.rateLimit.consume({ kind: 'ip', ip: '::1' })).allowed).to.equal(true);
  });
});
