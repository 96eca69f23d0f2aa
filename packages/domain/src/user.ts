import type { Email } from './email.js';
import type { GroupId, UserId } from './ids.js';
import type { Role } from './role.js';

export interface User {
  readonly id: UserId;
  readonly name: string;
  readonly email: Email;
  readonly role: Role;
  readonly groupIds: readonly GroupId[];
  /** An argon2id hash; the password itself is never stored or returned. */
  readonly passwordHash: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly version: number;
}

export const defaultRole: Role = 'customer';

export interface UserChanges {
  readonly name: string;
  readonly email: Email;
  readonly role: Role;
  readonly groupIds: readonly GroupId[];
  readonly passwordHash: string;
}

const sameIds = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export const applyUserChanges = (u: User, c: UserChanges, now: number): User =>
  u.name === c.name &&
  u.email === c.email &&
  u.role === c.role &&
  u.passwordHash === c.passwordHash &&
  sameIds(u.groupIds, c.groupIds)
    ? u
    : { ...u, ...c, updatedAt: Math.max(now, u.updatedAt), version: u.version + 1 };

/**
 * A member leaves a deleted group: their `groups` change, so updated_at (their Last-Modified)
 * moves with the version, as a ticket's does when it loses its group. A non-member stays as is.
 */
export const leaveGroup = (u: User, groupId: GroupId, now: number): User =>
  u.groupIds.includes(groupId)
    ? { ...u, groupIds: u.groupIds.filter((g) => g !== groupId), updatedAt: Math.max(now, u.updatedAt), version: u.version + 1 }
    : u;
