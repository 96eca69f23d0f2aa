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
  wrongCurrentPassword,
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
  type DomainError,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { byActor, type Actor } from '../actor.js';
import { loginFailed, loginRefusal } from '../auth/login-throttle.js';
import type { WriteOptions } from '../precondition.js';
import { acceptBody, acceptPage, withBody, type DecodedBody, type DecodedQuery } from '../decoded.js';
import { versionedWrite } from '../versioned-write.js';
import { forbiddenFields, isAdmin, isCustomer, requireRole, selfUserFields } from '../policy.js';
import type { FollowUp, Ports } from '../ports/index.js';
import { givenFields, type Outcome } from '../shared.js';
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
  return missing.length === 0
    ? []
    : [fieldError('groupIds', 'unknown_reference', `there is no group ${missing.join(', ')}`)];
};

const emailTaken = (email: string): FieldError =>
  fieldError('email', 'not_unique', `${email} is already in use by another user`);

export const listUsers = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedQuery<PageRequest>,
): Promise<Outcome<UserList>> => {
  const denied = requireRole(actor, ['agent', 'admin'], 'list users');
  if (denied !== null) return E.left(denied);
  const page = acceptPage(decoded);
  if (E.isLeft(page)) return page;
  const found = await ports.users.list(null, pageOffset(page.right), page.right.perPage);
  return E.right({ items: found.items, total: found.total, page: page.right });
};

export const getUser = async (ports: Ports, actor: Actor, id: UserId | 'me'): Promise<Outcome<User>> =>
  id === 'me' || id === actor.user.id ? E.right(actor.user) : loadUser(ports, actor, id);

export const createUser = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedBody<UserCreateInput>,
): Promise<Outcome<User>> => {
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
  return (await ports.users.insert(user, byActor(actor))) === 'ok'
    ? E.right(user)
    : E.left(validationFailed([emailTaken(input.email)]));
};

interface UserInput {
  readonly name?: string;
  readonly email?: Email;
  readonly password?: string;
  readonly currentPassword?: string;
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
const updateFollowUps = (actor: Actor, before: User, after: User, self: boolean, now: number): FollowUp[] => [
  ...(after.name === before.name
    ? []
    : [{ op: 'renameCustomer', customerId: after.id, name: after.name, version: after.version, now } as const]),
  // Tickets are assigned to agents or admins only: one made a customer leaves their tickets.
  ...(after.role === 'customer' && before.role !== 'customer'
    ? [{ op: 'unassignUser', userId: after.id, now } as const]
    : []),
  // Any password change ends every session and personal access token of that user (contract
  // §11: whoever knew the old password, or held a token, is cut off), except the session, or
  // the personal token, that changed its own password.
  ...(after.passwordHash === before.passwordHash
    ? []
    : ([
        {
          op: 'revokeUser',
          userId: after.id,
          ...(self && actor.session !== undefined ? { exceptFamily: actor.session } : {}),
        },
        {
          op: 'revokePersonalTokens',
          userId: after.id,
          ...(self && actor.token !== undefined ? { exceptToken: actor.token.id } : {}),
        },
      ] as const)),
];

/**
 * A user setting their own password proves they know the current one (contract §11): 422
 * without current_password; with a wrong one, 403 counted as a failed login (the login
 * throttle's 429 once an account has too many). An admin setting another's needs none.
 */
const ownPasswordCheck = async (ports: Ports, actor: Actor, input: UserInput): Promise<DomainError | null> => {
  if (input.password === undefined) return null;
  if (input.currentPassword === undefined)
    return validationFailed([
      fieldError('currentPassword', 'required', 'is required to change your own password: send your current one'),
    ]);
  const throttled = await loginRefusal(ports, actor.user.email);
  if (throttled !== null) return throttled;
  if (await ports.passwords.verify(actor.user.passwordHash, input.currentPassword)) return null;
  await loginFailed(ports, actor.user.email);
  return wrongCurrentPassword;
};

/** Who may change this user, and which fields: admins anyone and anything; others themselves, their name and password. */
const mayUpdate = (actor: Actor, current: User, input: UserInput): DomainError | null => {
  if (isAdmin(actor)) return null;
  if (current.id !== actor.user.id) return forbidden('only admins may change other users');
  const fields = selfViolations(current, input);
  return fields.length > 0 ? forbiddenFields(actor, fields) : null;
};

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
  if (self) {
    const refused = await ownPasswordCheck(ports, actor, input);
    if (refused !== null) return E.left(refused);
  }
  return versionedWrite(
    {
      load: () => loadUser(ports, actor, id),
      allowed: (current) => mayUpdate(actor, current, input),
      change: async (current) => {
        const w = isAdmin(actor)
          ? wanted(current)
          : { ...wanted(current), email: current.email, role: current.role, groupIds: current.groupIds };
        const errors = [...groupErrors];
        if (self && w.role !== current.role)
          errors.push(fieldError('role', 'invalid_value', 'you cannot change your own role'));
        if (w.email !== current.email) {
          const holder = await ports.users.findByEmail(w.email);
          if (holder !== null && holder.id !== current.id) errors.push(emailTaken(w.email));
        }
        if (errors.length > 0) return E.left(validationFailed(errors));
        const passwordHash = w.password === null ? current.passwordHash : await ports.passwords.hash(w.password);
        return E.right(
          applyUserChanges(
            current,
            { name: w.name, email: w.email, role: w.role, groupIds: w.groupIds, passwordHash },
            ports.clock.now(),
          ),
        );
      },
      write: async (next, current) => {
        const written = await ports.users.update(
          next,
          current.version,
          byActor(actor),
          updateFollowUps(actor, current, next, self, ports.clock.now()),
        );
        return written === 'email_taken' ? validationFailed([emailTaken(next.email)]) : written === 'ok';
      },
    },
    options,
  );
};

/** PUT and PATCH of a user differ only in what the body wants of the user. */
const userUpdate =
  <I extends UserInput>(wantedOf: (input: I, current: User) => Wanted) =>
  (
    ports: Ports,
    actor: Actor,
    id: UserId | 'me',
    decoded: DecodedBody<I>,
    options: WriteOptions<User> = {},
  ): Promise<Outcome<User>> =>
    withBody(decoded, (input) => updateUser(ports, actor, id, input, (current) => wantedOf(input, current), options));

export const replaceUser = userUpdate<UserReplaceInput>((input) => ({
  name: input.name,
  email: input.email,
  role: input.role ?? defaultRole,
  groupIds: input.groupIds ?? [],
  password: input.password ?? null,
}));

export const patchUser = userUpdate<UserPatchInput>((input, u) => ({
  name: input.name ?? u.name,
  email: input.email ?? u.email,
  role: input.role ?? u.role,
  groupIds: input.groupIds === undefined ? u.groupIds : (input.groupIds ?? []),
  password: input.password ?? null,
}));

export const deleteUser = (
  ports: Ports,
  actor: Actor,
  id: UserId,
  options: WriteOptions<User> = {},
): Promise<Outcome<User>> => {
  // A deleted user's tickets and messages stay; they lose their sessions, personal tokens and assignments.
  const followUps = (now: number): FollowUp[] => [
    { op: 'revokeUser', userId: id },
    { op: 'revokePersonalTokens', userId: id },
    { op: 'unassignUser', userId: id, now },
  ];
  return versionedWrite(
    {
      load: () => loadUser(ports, actor, id),
      allowed: () =>
        requireRole(actor, ['admin'], 'delete users') ??
        (id === actor.user.id ? conflict('you cannot delete your own account') : null),
      write: async () => {
        const now = ports.clock.now();
        return (await ports.users.delete(id, now, byActor(actor), followUps(now))) || notFound('user', id);
      },
    },
    options,
  );
};
