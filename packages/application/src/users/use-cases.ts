import {
  applyUserChanges,
  conflict,
  forbidden,
  defaultRole,
  fieldError,
  notFound,
  pageOffset,
  sameItems,
  validationFailed,
  type Email,
  type FieldError,
  type GroupId,
  type PageRequest,
  type Role,
  type User,
  type UserChanges,
  type UserCreateInput,
  type UserId,
  type UserPatchInput,
  type UserReplaceInput,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { byActor, type Actor } from '../actor.js';
import type { WriteOptions } from '../precondition.js';
import { acceptBody, acceptPage, type DecodedBody, type DecodedQuery } from '../decoded.js';
import { checkPrecondition } from '../precondition.js';
import { forbiddenFields, isAdmin, isCustomer, requireRole, selfUserFields } from '../policy.js';
import type { FollowUp, Ports } from '../ports/index.js';
import { givenFields, withRetries, type Outcome } from '../shared.js';
import type { UserList } from '../views.js';

const targetId = (actor: Actor, id: UserId | 'me'): UserId => (id === 'me' ? actor.user.id : id);

/** Customers see only themselves: any other user does not exist for them. */
const loadUser = async (ports: Ports, actor: Actor, id: UserId): Promise<Outcome<User>> => {
  if (isCustomer(actor) && id !== actor.user.id) return E.left(notFound('user', id));
  const u = await ports.users.findById(id);
  return u === null ? E.left(notFound('user', id)) : E.right(u);
};

const checkGroups = async (ports: Ports, ids: readonly GroupId[] | null | undefined): Promise<FieldError[]> => {
  if (ids === null || ids === undefined || ids.length === 0) return [];
  const found = new Set((await ports.groups.findByIds(ids)).map((g) => g.id));
  const missing = ids.filter((id) => !found.has(id));
  return missing.length === 0 ? [] : [fieldError('groupIds', 'unknown_reference', `there is no group ${missing.join(', ')}`)];
};

const emailTaken = (email: string): FieldError => fieldError('email', 'not_unique', `${email} is already in use by another user`);

export const listUsers = async (ports: Ports, actor: Actor, decoded: DecodedQuery<PageRequest>): Promise<Outcome<UserList>> => {
  const denied = requireRole(actor, ['agent', 'admin'], 'list users');
  if (denied !== null) return E.left(denied);
  const page = acceptPage(decoded);
  if (E.isLeft(page)) return page;
  const found = await ports.users.list(null, pageOffset(page.right), page.right.perPage);
  return E.right({ items: found.items, total: found.total, page: page.right });
};

export const getUser = async (ports: Ports, actor: Actor, id: UserId | 'me'): Promise<Outcome<User>> =>
  id === 'me' || id === actor.user.id ? E.right(actor.user) : loadUser(ports, actor, id);

export const createUserUseCase = async (ports: Ports, actor: Actor, decoded: DecodedBody<UserCreateInput>): Promise<Outcome<User>> => {
  const denied = requireRole(actor, ['admin'], 'create users');
  if (denied !== null) return E.left(denied);
  const accepted = acceptBody(decoded);
  if (E.isLeft(accepted)) return accepted;
  const input = accepted.right;
  const groupErrors = await checkGroups(ports, input.groupIds);
  const existing = await ports.users.findByEmail(input.email);
  const errors = [...groupErrors, ...(existing === null ? [] : [emailTaken(input.email)])];
  if (errors.length > 0) return E.left(validationFailed(errors));
  const now = ports.clock.now();
  const user: User = {
    id: (await ports.ids.next('user')) as UserId,
    name: input.name,
    email: input.email,
    role: input.role ?? defaultRole,
    groupIds: input.groupIds ?? [],
    passwordHash: await ports.passwords.hash(input.password),
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  return (await ports.users.insert(user, byActor(actor))) === 'ok' ? E.right(user) : E.left(validationFailed([emailTaken(input.email)]));
};

interface UserInput {
  readonly name?: string;
  readonly email?: Email;
  readonly password?: string;
  readonly role?: Role;
  readonly groupIds?: readonly GroupId[] | null;
}

type Wanted = Omit<UserChanges, 'passwordHash'> & { readonly password: string | null };

/** Fields a non-admin tried to change on themselves beyond name and password (equal values are no change). */
const selfViolations = (current: User, input: UserInput): string[] =>
  givenFields(input).filter((f) => {
    if (selfUserFields.includes(f)) return false;
    if (f === 'email') return input.email !== current.email;
    if (f === 'role') return input.role !== current.role;
    if (f === 'groupIds') return !sameItems(input.groupIds ?? [], current.groupIds);
    return true;
  });

/** What a user's change makes due elsewhere, carried out by the store with the change (ports/follow-ups.ts). */
const updateFollowUps = (before: User, after: User, self: boolean, now: number): FollowUp[] => [
  ...(after.name === before.name ? [] : [{ op: 'renameCustomer', customerId: after.id, name: after.name, version: after.version, now } as const]),
  // Tickets are assigned to agents or admins only: one made a customer leaves their tickets.
  ...(after.role === 'customer' && before.role !== 'customer' ? [{ op: 'unassignUser', userId: after.id, now } as const] : []),
  // A password set by someone else (an admin) ends every session of that user, and every
  // personal access token (contract §8.1): an admin resetting a password cuts every credential off.
  ...(after.passwordHash !== before.passwordHash && !self
    ? [{ op: 'revokeUser', userId: after.id } as const, { op: 'revokePersonalTokens', userId: after.id } as const]
    : []),
];

const updateUser = async (
  ports: Ports,
  actor: Actor,
  rawId: UserId | 'me',
  input: UserInput,
  wanted: (current: User) => Wanted,
  options: WriteOptions<User>,
): Promise<Outcome<User>> => {
  const id = targetId(actor, rawId);
  const self = id === actor.user.id;
  const groupErrors = await checkGroups(ports, input.groupIds);
  return withRetries(async () => {
    const loaded = await loadUser(ports, actor, id);
    if (E.isLeft(loaded)) return loaded;
    const current = loaded.right;
    if (!isAdmin(actor)) {
      if (!self) return E.left(forbidden('only admins may change other users'));
      const fields = selfViolations(current, input);
      if (fields.length > 0) return E.left(forbiddenFields(actor, fields));
    }
    const held = checkPrecondition(options, current);
    if (E.isLeft(held)) return held;
    const w = isAdmin(actor) ? wanted(current) : { ...wanted(current), email: current.email, role: current.role, groupIds: current.groupIds };
    const errors = [...groupErrors];
    if (self && w.role !== current.role) errors.push(fieldError('role', 'invalid_value', 'you cannot change your own role'));
    if (w.email !== current.email) {
      const holder = await ports.users.findByEmail(w.email);
      if (holder !== null && holder.id !== current.id) errors.push(emailTaken(w.email));
    }
    if (errors.length > 0) return E.left(validationFailed(errors));
    const passwordHash = w.password === null ? current.passwordHash : await ports.passwords.hash(w.password);
    const next = applyUserChanges(current, { name: w.name, email: w.email, role: w.role, groupIds: w.groupIds, passwordHash }, ports.clock.now());
    if (next === current) return E.right(current);
    const written = await ports.users.update(next, current.version, byActor(actor), updateFollowUps(current, next, self, ports.clock.now()));
    if (written === 'email_taken') return E.left(validationFailed([emailTaken(w.email)]));
    return written === 'ok' ? E.right(next) : 'retry';
  }, options);
};

export const replaceUserUseCase = (
  ports: Ports,
  actor: Actor,
  id: UserId | 'me',
  decoded: DecodedBody<UserReplaceInput>,
  options: WriteOptions<User> = {},
): Promise<Outcome<User>> => {
  const accepted = acceptBody(decoded);
  if (E.isLeft(accepted)) return Promise.resolve(accepted);
  const input = accepted.right;
  return updateUser(
    ports,
    actor,
    id,
    input,
    () => ({ name: input.name, email: input.email, role: input.role ?? defaultRole, groupIds: input.groupIds ?? [], password: input.password ?? null }),
    options,
  );
};

export const patchUserUseCase = (
  ports: Ports,
  actor: Actor,
  id: UserId | 'me',
  decoded: DecodedBody<UserPatchInput>,
  options: WriteOptions<User> = {},
): Promise<Outcome<User>> => {
  const accepted = acceptBody(decoded);
  if (E.isLeft(accepted)) return Promise.resolve(accepted);
  const input = accepted.right;
  return updateUser(
    ports,
    actor,
    id,
    input,
    (u) => ({
      name: input.name ?? u.name,
      email: input.email ?? u.email,
      role: input.role ?? u.role,
      groupIds: input.groupIds === undefined ? u.groupIds : (input.groupIds ?? []),
      password: input.password ?? null,
    }),
    options,
  );
};

export const deleteUserUseCase = async (ports: Ports, actor: Actor, id: UserId, options: WriteOptions<User> = {}): Promise<Outcome<User>> => {
  const loaded = await loadUser(ports, actor, id);
  if (E.isLeft(loaded)) return loaded;
  const denied = requireRole(actor, ['admin'], 'delete users');
  if (denied !== null) return E.left(denied);
  if (id === actor.user.id) return E.left(conflict('you cannot delete your own account'));
  const held = checkPrecondition(options, loaded.right);
  if (E.isLeft(held)) return held;
  // A deleted user's tickets and messages stay; they lose their sessions, personal tokens and assignments.
  const now = ports.clock.now();
  const followUps: FollowUp[] = [{ op: 'revokeUser', userId: id }, { op: 'revokePersonalTokens', userId: id }, { op: 'unassignUser', userId: id, now }];
  if (!(await ports.users.delete(id, now, byActor(actor), followUps))) return E.left(notFound('user', id));
  return E.right(loaded.right);
};
