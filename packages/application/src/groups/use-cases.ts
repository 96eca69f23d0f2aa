import {
  applyGroupChanges,
  fieldError,
  GroupCreateBody,
  GroupPatchBody,
  GroupReplaceBody,
  invalidQuery,
  notFound,
  pageOffset,
  pageTooDeep,
  parsePage,
  validationFailed,
  type FieldError,
  type Group,
  type GroupChanges,
  type GroupId,
  type PageRequest,
  type QueryIssue,
  type QueryParams,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import type { WriteOptions } from '../application.js';
import { requireRole } from '../policy.js';
import type { Ports } from '../ports/index.js';
import { decodeBody, withRetries, type Outcome } from '../shared.js';
import type { GroupList, UserList } from '../views.js';

const nameTaken = (name: string): FieldError => fieldError('name', 'not_unique', `a group named "${name}" already exists`);

const readable = (actor: Actor): Outcome<null> => {
  const denied = requireRole(actor, ['agent', 'admin'], 'read groups');
  return denied === null ? E.right(null) : E.left(denied);
};
const writable = (actor: Actor): Outcome<null> => {
  const denied = requireRole(actor, ['admin'], 'change groups');
  return denied === null ? E.right(null) : E.left(denied);
};

const pageOf = (params: QueryParams): Outcome<PageRequest> => {
  const issues: QueryIssue[] = [];
  const page = parsePage(params, issues);
  if (issues.length > 0) return E.left(invalidQuery(issues));
  const tooDeep = pageTooDeep(page);
  return tooDeep === null ? E.right(page) : E.left(tooDeep);
};

const loadGroup = async (ports: Ports, id: GroupId): Promise<Outcome<Group>> => {
  const g = await ports.groups.findById(id);
  return g === null ? E.left(notFound('group', id)) : E.right(g);
};

export const listGroups = async (ports: Ports, actor: Actor, params: QueryParams): Promise<Outcome<GroupList>> => {
  const ok = readable(actor);
  if (E.isLeft(ok)) return ok;
  const page = pageOf(params);
  if (E.isLeft(page)) return page;
  const found = await ports.groups.list(pageOffset(page.right), page.right.perPage);
  return E.right({ items: found.items, total: found.total, page: page.right });
};

export const getGroup = async (ports: Ports, actor: Actor, id: GroupId): Promise<Outcome<Group>> => {
  const ok = readable(actor);
  return E.isLeft(ok) ? ok : loadGroup(ports, id);
};

export const groupMembers = async (ports: Ports, actor: Actor, id: GroupId, params: QueryParams): Promise<Outcome<UserList>> => {
  const ok = readable(actor);
  if (E.isLeft(ok)) return ok;
  const page = pageOf(params);
  if (E.isLeft(page)) return page;
  const group = await loadGroup(ports, id);
  if (E.isLeft(group)) return group;
  const found = await ports.users.list(id, pageOffset(page.right), page.right.perPage);
  return E.right({ items: found.items, total: found.total, page: page.right });
};

export const createGroupUseCase = async (ports: Ports, actor: Actor, body: unknown): Promise<Outcome<Group>> => {
  const ok = writable(actor);
  if (E.isLeft(ok)) return ok;
  const decoded = decodeBody(GroupCreateBody, body);
  if (E.isLeft(decoded)) return decoded;
  const now = ports.clock.now();
  const group: Group = {
    id: (await ports.ids.next('group')) as GroupId,
    name: decoded.right.name,
    description: decoded.right.description ?? '',
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  return (await ports.groups.insert(group)) === 'ok' ? E.right(group) : E.left(validationFailed([nameTaken(group.name)]));
};

const updateGroup = (
  ports: Ports,
  actor: Actor,
  id: GroupId,
  changes: (current: Group) => GroupChanges,
  options: WriteOptions<Group>,
): Promise<Outcome<Group>> =>
  withRetries(async () => {
    const ok = readable(actor);
    if (E.isLeft(ok)) return ok;
    const loaded = await loadGroup(ports, id);
    if (E.isLeft(loaded)) return loaded;
    const allowed = writable(actor);
    if (E.isLeft(allowed)) return allowed;
    const current = loaded.right;
    if (options.ifMatch !== undefined && !options.ifMatch(current)) return E.left({ _tag: 'PreconditionFailed' });
    const next = applyGroupChanges(current, changes(current), ports.clock.now());
    if (next === current) return E.right(current);
    const written = await ports.groups.update(next, current.version);
    if (written === 'name_taken') return E.left(validationFailed([nameTaken(next.name)]));
    return written === 'ok' ? E.right(next) : 'retry';
  }, options.ifMatch !== undefined);

export const replaceGroupUseCase = (
  ports: Ports,
  actor: Actor,
  id: GroupId,
  body: unknown,
  options: WriteOptions<Group> = {},
): Promise<Outcome<Group>> => {
  const decoded = decodeBody(GroupReplaceBody, body);
  if (E.isLeft(decoded)) return Promise.resolve(decoded);
  return updateGroup(ports, actor, id, () => ({ name: decoded.right.name, description: decoded.right.description ?? '' }), options);
};

export const patchGroupUseCase = (
  ports: Ports,
  actor: Actor,
  id: GroupId,
  body: unknown,
  options: WriteOptions<Group> = {},
): Promise<Outcome<Group>> => {
  const decoded = decodeBody(GroupPatchBody, body);
  if (E.isLeft(decoded)) return Promise.resolve(decoded);
  const input = decoded.right;
  return updateGroup(
    ports,
    actor,
    id,
    (g) => ({ name: input.name ?? g.name, description: input.description === undefined ? g.description : (input.description ?? '') }),
    options,
  );
};

export const deleteGroupUseCase = async (ports: Ports, actor: Actor, id: GroupId, options: WriteOptions<Group> = {}): Promise<Outcome<Group>> => {
  const ok = readable(actor);
  if (E.isLeft(ok)) return ok;
  const loaded = await loadGroup(ports, id);
  if (E.isLeft(loaded)) return loaded;
  const allowed = writable(actor);
  if (E.isLeft(allowed)) return allowed;
  if (options.ifMatch !== undefined && !options.ifMatch(loaded.right)) return E.left({ _tag: 'PreconditionFailed' });
  if (!(await ports.groups.delete(id))) return E.left(notFound('group', id));
  // Members leave the group and its tickets lose it; users and tickets themselves stay.
  await ports.users.removeGroup(id);
  await ports.tickets.clearGroup(id, ports.clock.now());
  return E.right(loaded.right);
};
