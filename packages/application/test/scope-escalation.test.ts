import { roleScopes, roles, scopeCovers, scopes, type Role, type Scope } from '@support/domain';
import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, fieldsOf, leftOf, rightOf, world } from './support/world.js';

// A narrowed token must not widen itself (contract §11). The review's attack: a login token
// with scope=tickets:read minted a personal token with tickets:write users:write groups:write
// events:read webhooks:manage (201), which then wrote. Now a new token's scopes lie within the
// scopes of the login token that asks for it, and within what the role can use; and at most
// 100 personal tokens that have not expired per user.

const subsetOf = (xs: readonly Scope[]) => fc.subarray([...xs]);

describe('use cases: no path mints a token with scopes its maker lacks (property)', () => {
  it('by any grant (password with or without scope, then refreshes), any asked scopes, any role', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Role>(...roles),
        fc.option(subsetOf(scopes), { nil: undefined }),
        fc.nat(2),
        fc.array(fc.constantFrom(...scopes), { minLength: 1, maxLength: 8 }),
        async (role, loginScope, refreshes, wanted) => {
          const w = await world();
          const maker = role === 'admin' ? w.admin : await w.user(role);
          const email = maker.user.email;
          const password = role === 'admin' ? 'admin-password' : `password-${String(maker.user.id - 1)}`;
          const granted = await w.app.auth.passwordGrant(email, password, loginScope);
          if (E.isLeft(granted)) {
            // A narrowing to nothing this role can use is refused (invalid_scope), not widened.
            expect(granted.left._tag === 'OAuthError' && granted.left.error).to.equal('invalid_scope');
            return;
          }
          let grant = granted.right;
          for (let i = 0; i < refreshes; i++) grant = rightOf(await w.app.auth.refreshGrant(grant.refreshToken));
          const held = grant.scope.split(' ') as Scope[];
          const login = rightOf(await w.app.auth.authenticate(grant.accessToken));
          const made = await w.app.tokens.create(login, decoded({ name: 'bot', scopes: wanted }));
          const allowed = (s: Scope): boolean => scopeCovers(held, s) && scopeCovers(roleScopes(role), s);
          if (wanted.every(allowed)) {
            const token = rightOf(made);
            expect(token.record.scopes.every(allowed)).to.equal(true);
            // The token's own requests: never more than its scopes; and it cannot mint another.
            const actor = rightOf(await w.app.auth.authenticate(token.token));
            expect(actor.scopes).to.deep.equal(token.record.scopes);
            const again = await w.app.tokens.create(actor, decoded({ name: 'child', scopes: wanted }));
            expect(leftOf(again)._tag).to.equal('Forbidden');
          } else expect(fieldsOf(leftOf(made))).to.deep.equal([['scopes', 'not_permitted']]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the review's attack: a tickets:read login cannot mint a token that writes", async () => {
    const w = await world();
    const grant = rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password', ['tickets:read']));
    const login = rightOf(await w.app.auth.authenticate(grant.accessToken));
    const made = await w.app.tokens.create(
      login,
      decoded({
        name: 'wider',
        scopes: ['tickets:write', 'users:write', 'groups:write', 'events:read', 'webhooks:manage'],
      }),
    );
    const refused = leftOf(made);
    expect(fieldsOf(refused)).to.deep.equal([['scopes', 'not_permitted']]);
    expect(refused._tag === 'ValidationFailed' && refused.errors[0]?.message).to.equal(
      'a token cannot hold scopes that the login token making it lacks, or that an admin cannot use: tickets:write users:write groups:write events:read webhooks:manage (this login token can give tickets:read)',
    );
    expect(
      rightOf(await w.app.tokens.create(login, decoded({ name: 'same', scopes: ['tickets:read'] }))).record.scopes,
    ).to.deep.equal(['tickets:read']);
  });
});

describe('use cases: at most 100 live personal tokens per user', () => {
  it('refuses the 101st (422 limit_reached); an expired or revoked one frees a place', async () => {
    const w = await world();
    const agent = await w.agent();
    const soon = w.clock.now() + 3_600_000;
    const first = rightOf(
      await w.app.tokens.create(agent, decoded({ name: 't0', scopes: ['tickets:read'], expiresAt: soon })),
    );
    for (let i = 1; i < 100; i++)
      rightOf(await w.app.tokens.create(agent, decoded({ name: `t${i}`, scopes: ['tickets:read'] })));
    const refused = leftOf(await w.app.tokens.create(agent, decoded({ name: 'one more', scopes: ['tickets:read'] })));
    expect(fieldsOf(refused)).to.deep.equal([['', 'limit_reached']]);
    // Another user is not affected.
    rightOf(await w.app.tokens.create(await w.agent(), decoded({ name: 'other', scopes: ['tickets:read'] })));
    w.clock.advance(3_600_001);
    rightOf(await w.app.tokens.create(agent, decoded({ name: 'after expiry', scopes: ['tickets:read'] })));
    expect(
      leftOf(await w.app.tokens.create(agent, decoded({ name: 'full again', scopes: ['tickets:read'] })))._tag,
    ).to.equal('ValidationFailed');
    const list = rightOf(await w.app.tokens.list(agent, 'me', { _tag: 'Right', right: { page: 1, perPage: 1 } }));
    expect(list.total).to.equal(101);
    rightOf(await w.app.tokens.revoke(agent, 'me', first.record.id + 1));
    rightOf(await w.app.tokens.create(agent, decoded({ name: 'after revoke', scopes: ['tickets:read'] })));
  });
});
