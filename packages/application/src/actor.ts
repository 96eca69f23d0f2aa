import {
  scopes,
  type EventActor,
  type EventToken,
  type Role,
  type Scope,
  type User,
  type UserId,
} from '@support/domain';

/** Who is calling: the authenticated user, loaded fresh for every request. */
export interface Actor {
  readonly user: User;
  /** The personal access token the request was made with (contract §8.1); absent for a login token. */
  readonly token?: EventToken;
  /** The token's scopes (contract §8.2); absent for a login token asked for without `scope`: every scope its role can use. */
  readonly scopes?: readonly Scope[];
  /** The login the request was made in (its tokens' family): what an own password change keeps (contract §11). */
  readonly session?: string;
}

export const actorId = (a: Actor): UserId => a.user.id;
export const actorRole = (a: Actor): Role => a.user.role;

/** The caller as the change feed records who made a change (contract §8.3). */
export const byActor = (a: Actor): EventActor =>
  a.token === undefined
    ? { type: 'user', id: a.user.id }
    : { type: 'user', id: a.user.id, token: { id: a.token.id, name: a.token.name } };

/**
 * The scopes the caller's token holds. A login token asked for without `scope` is not narrowed:
 * it holds every scope, so only the role decides (it can use those of roleScopes).
 */
export const actorScopes = (a: Actor): readonly Scope[] => a.scopes ?? scopes;
