import { upgrading, type Upgrades } from './upgrade.js';
import type { Email } from './email.js';
import type { GroupId, UserId } from './ids.js';
import { revise } from './revision.js';
import type { Role } from './role.js';
import { sameItems } from './same-items.js';

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

export const applyUserChanges = (u: User, c: UserChanges, now: number): User =>
  u.name === c.name &&
  u.email === c.email &&
  u.role === c.role &&
  u.passwordHash === c.passwordHash &&
  sameItems(u.groupIds, c.groupIds)
    ? u
    : revise(u, now, c);

/**
 * A member leaves a deleted group: their `groups` change, so updated_at (their Last-Modified)
 * moves with the version, as a ticket's does when it loses its group. A non-member stays as is.
 */
export const leaveGroup = (u: User, groupId: GroupId, now: number): User =>
  u.groupIds.includes(groupId) ? revise(u, now, { groupIds: u.groupIds.filter((g) => g !== groupId) }) : u;

/** What a user stored before a field existed is read back with: one entry per field added since format 1. */
// eslint-disable-next-line @typescript-eslint/no-generated-empty-object-type -- empty until a field is added: then it asks for its default
export const userUpgrades: Upgrades<
  User,
  'id' | 'name' | 'email' | 'role' | 'groupIds' | 'passwordHash' | 'createdAt' | 'updatedAt' | 'version'
> = {};
/** The upgrade step every store reads a stored user through. */
export const upgradeUser = upgrading<
  User,
  'id' | 'name' | 'email' | 'role' | 'groupIds' | 'passwordHash' | 'createdAt' | 'updatedAt' | 'version'
>(userUpgrades);
