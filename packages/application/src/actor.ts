import type { Role, User, UserId } from '@support/domain';

/** Who is calling: the authenticated user, loaded fresh for every request. */
export interface Actor {
  readonly user: User;
}

export const actorId = (a: Actor): UserId => a.user.id;
export const actorRole = (a: Actor): Role => a.user.role;
