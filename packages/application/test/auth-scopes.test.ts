import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, leftOf, rightOf, world } from './support/world.js';

// The token use cases beyond a plain login: a login narrowed by scope (kept by its refreshes),
// the requests refused before any store call, refresh tokens' lifetime, personal tokens'
// last use and their revocation by whoever holds them.

describe('auth: scopes, refusals and personal tokens', () => {
  it('a login narrowed by scope holds what was asked for and the role can use, and so do its refreshes', async () => {
    const w = await world();
    const alice = await w.customer();
    const whole = rightOf(await w.app.auth.passwordGrant(alice.user.email, 'password-1'));
    expect(whole.scope).to.equal('tickets:read tickets:write users:read users:write');
    expect(rightOf(await w.app.auth.authenticate(whole.accessToken)).scopes, 'not narrowed').to.equal(undefined);
    const narrow = rightOf(
      await w.app.auth.passwordGrant(alice.user.email, 'password-1', ['groups:write', 'tickets:read']),
    );
    expect(narrow.scope).to.equal('tickets:read');
    expect(rightOf(await w.app.auth.authenticate(narrow.accessToken)).scopes).to.deep.equal(['tickets:read']);
    const refreshed = rightOf(await w.app.auth.refreshGrant(narrow.refreshToken));
    expect(refreshed.scope).to.equal('tickets:read');
    expect(rightOf(await w.app.auth.authenticate(refreshed.accessToken)).scopes).to.deep.equal(['tickets:read']);
    const none = leftOf(await w.app.auth.passwordGrant(alice.user.email, 'password-1', ['webhooks:manage']));
    expect(none).to.deep.equal({
      _tag: 'OAuthError',
      error: 'invalid_scope',
      description:
        'none of the scopes asked for can be used by a customer; a customer can use tickets:read tickets:write users:read users:write',
    });
  });

  it('refuses an empty username, password or refresh token as a bad request, and bad credentials as a bad grant', async () => {
    const w = await world();
    const required = {
      _tag: 'OAuthError',
      error: 'invalid_request',
      description: 'username and password are required',
    };
    expect(leftOf(await w.app.auth.passwordGrant('', 'admin-password'))).to.deep.equal(required);
    expect(leftOf(await w.app.auth.passwordGrant('admin@example.com', ''))).to.deep.equal(required);
    expect(leftOf(await w.app.auth.passwordGrant('admin@example.com', 'wrong'))).to.deep.equal({
      _tag: 'OAuthError',
      error: 'invalid_grant',
      description: 'the e-mail address or password is incorrect',
    });
    expect(leftOf(await w.app.auth.refreshGrant(''))).to.deep.equal({
      _tag: 'OAuthError',
      error: 'invalid_request',
      description: 'refresh_token is required',
    });
    expect(leftOf(await w.app.auth.refreshGrant('never-issued')).description).to.equal(
      'the refresh token is unknown, expired or revoked',
    );
    const grant = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    expect(leftOf(await w.app.auth.refreshGrant(grant.accessToken)).description).to.equal(
      'this is an access token, not a refresh token',
    );
    rightOf(await w.app.auth.refreshGrant(grant.refreshToken));
    expect(leftOf(await w.app.auth.refreshGrant(grant.refreshToken)).description).to.equal(
      'the refresh token was already used; its session has been revoked',
    );
    expect(leftOf(await w.app.auth.authenticate(''))).to.deep.equal({ _tag: 'Unauthenticated', reason: 'missing' });
    expect(leftOf(await w.app.auth.authenticate('never-issued'))).to.deep.equal({
      _tag: 'Unauthenticated',
      reason: 'invalid',
    });
  });

  it('a refresh token lives its own lifetime, longer than the access token', async () => {
    const w = await world({ tokenTtl: 60 });
    const grant = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    w.clock.advance(3_600_000);
    expect(E.isLeft(await w.app.auth.authenticate(grant.accessToken))).to.equal(true);
    const later = rightOf(await w.app.auth.refreshGrant(grant.refreshToken));
    w.clock.advance(30 * 86_400_000);
    expect(leftOf(await w.app.auth.refreshGrant(later.refreshToken)).description).to.equal(
      'the refresh token is unknown, expired or revoked',
    );
  });

  it("a login's tokens of a deleted user no longer work", async () => {
    const w = await world();
    const agent = await w.agent();
    const grant = rightOf(await w.app.auth.passwordGrant(agent.user.email, 'password-1'));
    await w.ports.store.users.delete(agent.user.id, w.clock.now(), { type: 'user', id: w.admin.user.id }, []);
    expect(leftOf(await w.app.auth.authenticate(grant.accessToken))).to.deep.equal({
      _tag: 'Unauthenticated',
      reason: 'invalid',
    });
    expect(leftOf(await w.app.auth.refreshGrant(grant.refreshToken)).description).to.equal(
      'the refresh token is unknown, expired or revoked',
    );
  });

  it("a personal token's last use is written at most once a minute", async () => {
    const w = await world();
    const agent = await w.agent();
    const made = rightOf(await w.app.tokens.create(agent, decoded({ name: 'Bot', scopes: ['tickets:read'] })));
    const lastUsed = async (): Promise<number | null> =>
      (await w.ports.personalTokens.findById(made.record.id))?.lastUsedAt ?? null;
    expect(await lastUsed()).to.equal(null);
    const first = w.clock.now();
    rightOf(await w.app.auth.authenticate(made.token));
    expect(await lastUsed()).to.equal(first);
    w.clock.advance(59_999);
    rightOf(await w.app.auth.authenticate(made.token));
    expect(await lastUsed(), 'within the minute: not written again').to.equal(first);
    w.clock.advance(1);
    rightOf(await w.app.auth.authenticate(made.token));
    expect(await lastUsed()).to.equal(first + 60_000);
  });

  it('revokes a personal token given to the revocation endpoint; a malformed one is ignored', async () => {
    const w = await world();
    const agent = await w.agent();
    const made = rightOf(await w.app.tokens.create(agent, decoded({ name: 'Bot', scopes: ['tickets:read'] })));
    await w.app.auth.revoke(`${made.token.slice(0, -1)}${made.token.at(-1) === 'A' ? 'B' : 'A'}`);
    await w.app.auth.revoke('');
    expect(E.isRight(await w.app.auth.authenticate(made.token))).to.equal(true);
    await w.app.auth.revoke(made.token);
    expect(leftOf(await w.app.auth.authenticate(made.token))._tag).to.equal('Unauthenticated');
    await w.app.auth.revoke(made.token);
  });
});
