import {
  canonicalScopes,
  isPersonalTokenShaped,
  isWellFormedPersonalToken,
  personalTokenLimits,
  roleScopes,
  unauthenticated,
  type Scope,
  type User,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import { loginFailed, loginRefusal } from './login-throttle.js';
import { oauthError, type AuthConfig, type GrantRefusal, type OAuthError, type TokenGrant } from './oauth.js';

const badCredentials = oauthError('invalid_grant', 'the e-mail address or password is incorrect');

export interface AuthUseCases {
  authenticate(token: string | null): Promise<Outcome<Actor>>;
  /** Refused with an OAuth error, or LoginThrottled (429) after too many failures for this account. */
  passwordGrant(
    username: string,
    password: string,
    scope?: readonly Scope[],
  ): Promise<E.Either<GrantRefusal, TokenGrant>>;
  refreshGrant(refreshToken: string): Promise<E.Either<OAuthError, TokenGrant>>;
  revoke(token: string): Promise<void>;
}

export const authUseCases = (ports: Ports, config: AuthConfig): AuthUseCases => {
  // Verifying against a real hash when the user does not exist makes an unknown e-mail
  // take as long as a wrong password: the answer and its timing are the same.
  let decoyHash: Promise<string> | null = null;
  const decoy = (): Promise<string> => {
    decoyHash ??= ports.passwords.hash(ports.secrets.generate()).catch((e: unknown) => {
      decoyHash = null; // a busy hasher now must not refuse every later unknown login
      throw e;
    });
    return decoyHash;
  };

  /**
   * `scopes`: what the login was narrowed to (kept by every refresh of it); undefined, the role's.
   * `authenticatedAt`: when its password grant was (kept too): the refresh token never outlives
   * REFRESH_MAX_AGE_S after it, however often the login is refreshed (contract §11).
   */
  const issue = async (
    user: User,
    familyId: string,
    scopes: readonly Scope[] | undefined,
    authenticatedAt: number,
  ): Promise<TokenGrant> => {
    const now = ports.clock.now();
    const accessToken = ports.secrets.generate();
    const refreshToken = ports.secrets.generate();
    const narrowed = scopes === undefined ? {} : { scopes };
    await ports.tokens.save({
      hash: ports.secrets.digest(accessToken),
      kind: 'access',
      userId: user.id,
      familyId,
      expiresAt: now + config.accessTokenTtlSeconds * 1000,
      ...narrowed,
      authenticatedAt,
    });
    await ports.tokens.save({
      hash: ports.secrets.digest(refreshToken),
      kind: 'refresh',
      userId: user.id,
      familyId,
      expiresAt: Math.min(
        now + config.refreshTokenTtlSeconds * 1000,
        authenticatedAt + config.refreshMaxAgeSeconds * 1000,
      ),
      ...narrowed,
      authenticatedAt,
    });
    const scope = (scopes ?? roleScopes(user.role)).join(' ');
    return { accessToken, tokenType: 'bearer', expiresIn: config.accessTokenTtlSeconds, refreshToken, scope };
  };

  /**
   * A personal access token (contract §8.1): a malformed one (wrong length, alphabet or
   * checksum) is refused without a store call; a known one is looked up by hash (one indexed
   * read), its user loaded, and last_used_at written at most once a minute (the store decides).
   */
  const personal = async (token: string): Promise<Outcome<Actor>> => {
    if (!isWellFormedPersonalToken(token)) return E.left(unauthenticated('invalid'));
    const now = ports.clock.now();
    const record = await ports.personalTokens.findByHash(ports.secrets.digest(token), now);
    if (record === null) return E.left(unauthenticated('invalid'));
    const user = await ports.users.findById(record.userId);
    if (user === null) return E.left(unauthenticated('invalid'));
    const interval = personalTokenLimits.lastUsedIntervalMs;
    if (record.lastUsedAt === null || record.lastUsedAt <= now - interval)
      await ports.personalTokens.touch(record.id, now, interval);
    return E.right({ user, token: { id: record.id, name: record.name }, scopes: record.scopes });
  };

  return {
    async authenticate(token) {
      if (token === null || token === '') return E.left(unauthenticated('missing'));
      if (isPersonalTokenShaped(token)) return personal(token);
      const record = await ports.tokens.find(ports.secrets.digest(token), ports.clock.now());
      if (record?.kind !== 'access') return E.left(unauthenticated('invalid'));
      const user = await ports.users.findById(record.userId);
      if (user === null) return E.left(unauthenticated('invalid'));
      const session = { user, session: record.familyId };
      return E.right(record.scopes === undefined ? session : { ...session, scopes: record.scopes });
    },

    async passwordGrant(username, password, scope) {
      if (username === '' || password === '')
        return E.left(oauthError('invalid_request', 'username and password are required'));
      // Throttled before any password is checked: the same answer for an unknown account.
      const throttled = await loginRefusal(ports, username);
      if (throttled?._tag === 'LoginThrottled') return E.left(throttled);
      const user = await ports.users.findByEmail(username);
      const valid = await ports.passwords.verify(user?.passwordHash ?? (await decoy()), password);
      if (user === null || !valid) {
        await loginFailed(ports, username);
        return E.left(badCredentials);
      }
      const now = ports.clock.now();
      if (scope === undefined) return E.right(await issue(user, ports.secrets.generate(), undefined, now));
      // Scopes never widen a role (contract §8.2): the grant is what was asked for and the role can use (RFC 6749 §3.3 lets it be narrower).
      const usable = roleScopes(user.role);
      const granted = canonicalScopes(scope.filter((s) => usable.includes(s)));
      if (granted.length === 0)
        return E.left(
          oauthError(
            'invalid_scope',
            `none of the scopes asked for can be used by a ${user.role}; a ${user.role} can use ${usable.join(' ')}`,
          ),
        );
      return E.right(await issue(user, ports.secrets.generate(), granted, now));
    },

    async refreshGrant(refreshToken) {
      if (refreshToken === '') return E.left(oauthError('invalid_request', 'refresh_token is required'));
      const hash = ports.secrets.digest(refreshToken);
      const now = ports.clock.now();
      const live = await ports.tokens.find(hash, now);
      if (live?.kind === 'access')
        return E.left(oauthError('invalid_grant', 'this is an access token, not a refresh token'));
      const used = await ports.tokens.consume(hash, now);
      switch (used.status) {
        case 'missing':
          return E.left(oauthError('invalid_grant', 'the refresh token is unknown, expired or revoked'));
        case 'reused':
          // A replayed refresh token means it leaked: end the whole session family.
          await ports.tokens.revokeFamily(used.record.familyId);
          return E.left(
            oauthError('invalid_grant', 'the refresh token was already used; its session has been revoked'),
          );
        case 'consumed': {
          const user = await ports.users.findById(used.record.userId);
          if (user === null)
            return E.left(oauthError('invalid_grant', 'the refresh token is unknown, expired or revoked'));
          // A record from before the chain's start was kept: its chain starts with this token.
          const authenticatedAt =
            used.record.authenticatedAt ?? used.record.expiresAt - config.refreshTokenTtlSeconds * 1000;
          if (now >= authenticatedAt + config.refreshMaxAgeSeconds * 1000)
            return E.left(
              oauthError(
                'invalid_grant',
                'this login is older than REFRESH_MAX_AGE_S allows; sign in again with the password grant',
              ),
            );
          return E.right(await issue(user, used.record.familyId, used.record.scopes, authenticatedAt));
        }
      }
    },

    async revoke(token) {
      if (token === '') return;
      if (isPersonalTokenShaped(token)) {
        // RFC 7009 for personal tokens too: whoever finds a leaked one can end it.
        if (!isWellFormedPersonalToken(token)) return;
        const record = await ports.personalTokens.findByHash(ports.secrets.digest(token), ports.clock.now());
        if (record !== null) await ports.personalTokens.revoke(record.id);
        return;
      }
      const hash = ports.secrets.digest(token);
      const record = await ports.tokens.find(hash, ports.clock.now());
      if (record?.kind === 'refresh') await ports.tokens.revokeFamily(record.familyId);
      else await ports.tokens.revoke(hash);
    },
  };
};
