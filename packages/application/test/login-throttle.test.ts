import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { loginThrottleLimits } from '../src/auth/login-throttle.js';
import { decoded, fieldsOf, leftOf, rightOf, world, type World } from './support/world.js';

// The login throttle and the own password change (contract §11): at most 10 failed password
// checks per account in any 15 minutes, from any address, then 429 with Retry-After whether or
// not the account exists; a user changing their own password gives the current one (422
// without, 403 when wrong, counted by the throttle).

const windowMs = loginThrottleLimits.windowSeconds * 1000;

const fail = (w: World, email: string) => w.app.auth.passwordGrant(email, 'not the password');

describe('use cases: the login throttle', () => {
  it('after 10 failures an account answers 429 with Retry-After, the right password included; others are unaffected', async () => {
    const w = await world();
    const agent = await w.agent();
    w.clock.set(Math.floor(w.clock.now() / windowMs) * windowMs + 60_000);
    for (let i = 0; i < 10; i++) expect(leftOf(await fail(w, agent.user.email))._tag).to.equal('OAuthError');
    const locked = leftOf(await w.app.auth.passwordGrant(agent.user.email, 'password-1'));
    expect(locked).to.deep.equal({ _tag: 'LoginThrottled', retryAfterSeconds: 2 * 15 * 60 - 60 });
    // The same for any spelling of the address, and for an account that does not exist.
    expect(leftOf(await fail(w, agent.user.email.toUpperCase()))._tag).to.equal('LoginThrottled');
    for (let i = 0; i < 10; i++) await fail(w, 'nobody@example.com');
    expect(leftOf(await fail(w, 'nobody@example.com'))).to.deep.equal(locked);
    rightOf(await w.app.auth.passwordGrant('admin@example.com', 'admin-password'));
    // Free again once a whole window without failures has passed.
    w.clock.advance(locked._tag === 'LoginThrottled' ? locked.retryAfterSeconds * 1000 - 1000 : 0);
    expect(leftOf(await w.app.auth.passwordGrant(agent.user.email, 'password-1'))._tag).to.equal('LoginThrottled');
    w.clock.advance(1000);
    rightOf(await w.app.auth.passwordGrant(agent.user.email, 'password-1'));
  });

  it('no 15 minutes ever hold more than 10 counted failures, however they fall across windows (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5 * 60_000 }), { minLength: 1, maxLength: 60 }),
        async (gaps) => {
          const w = await world();
          const counted: number[] = [];
          for (const gap of gaps) {
            w.clock.advance(gap);
            const r = await fail(w, 'victim@example.com');
            if (E.isLeft(r) && r.left._tag === 'OAuthError') counted.push(w.clock.now());
            else if (E.isLeft(r) && r.left._tag === 'LoginThrottled') expect(r.left.retryAfterSeconds).to.be.above(0);
          }
          for (let i = 0; i < counted.length; i++) {
            const inside = counted.filter((t) => t >= (counted[i] as number) && t < (counted[i] as number) + windowMs);
            expect(inside.length).to.be.at.most(loginThrottleLimits.maxFailures);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('use cases: changing your own password', () => {
  it('needs current_password: 422 without, 403 when wrong (counted as a failed login), then 429', async () => {
    const w = await world();
    const alice = await w.customer();
    const missing = leftOf(await w.app.users.patch(alice, 'me', decoded({ password: 'a new password' })));
    expect(fieldsOf(missing)).to.deep.equal([['currentPassword', 'required']]);
    const replaced = leftOf(
      await w.app.users.replace(
        alice,
        alice.user.id,
        decoded({ name: 'A', email: alice.user.email, password: 'a new one!' }),
      ),
    );
    expect(fieldsOf(replaced)).to.deep.equal([['currentPassword', 'required']]);
    for (let i = 0; i < 10; i++) {
      const wrong = await w.app.users.patch(
        alice,
        'me',
        decoded({ password: 'a new password', currentPassword: 'guess' }),
      );
      expect(leftOf(wrong)._tag).to.equal('WrongCurrentPassword');
    }
    const throttled = leftOf(
      await w.app.users.patch(alice, 'me', decoded({ password: 'a new password', currentPassword: 'password-1' })),
    );
    expect(throttled._tag).to.equal('LoginThrottled');
    expect(leftOf(await w.app.auth.passwordGrant(alice.user.email, 'password-1'))._tag).to.equal('LoginThrottled');
    expect((await w.refreshed(alice)).user.passwordHash, 'unchanged').to.equal('hashed:password-1');
  });

  it("with the right one changes it; a name alone needs none; an admin setting another user's needs none", async () => {
    const w = await world();
    const alice = await w.customer();
    rightOf(await w.app.users.patch(alice, 'me', decoded({ name: 'Alice' })));
    const changed = rightOf(
      await w.app.users.patch(
        await w.refreshed(alice),
        'me',
        decoded({ password: 'a new password', currentPassword: 'password-1' }),
      ),
    );
    expect(changed.passwordHash).to.equal('hashed:a new password');
    rightOf(await w.app.users.patch(w.admin, alice.user.id, decoded({ password: 'set by the admin' })));
    const own = leftOf(await w.app.users.patch(w.admin, 'me', decoded({ password: 'admins too' })));
    expect(fieldsOf(own)).to.deep.equal([['currentPassword', 'required']]);
  });
});
