import {
  applyGroupChanges,
  fieldError,
  notFound,
  pageOffset,
  validationFailed,
  type FieldError,
  type Group,
  type GroupChanges,
  type GroupCreateInput,
  type GroupId,
  type GroupPatchInput,
  type PageRequest,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { byActor, type Actor } from '../actor.js';
import type { WriteOptions } from '../precondition.js';
import { acceptBody, acceptPage, type DecodedBody, type DecodedQuery } from '../decoded.js';
import { checkPrecondition } from '../precondition.js';
import { requireRole } from '../policy.js';
import type { FollowUp, Ports } from '../ports/index.js';
import { withRetries, type Outcome } from '../shared.js';
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

const loadGroup = async (ports: Ports, id: GroupId): Promise<Outcome<Group>> => {
  const g = await ports.groups.findById(id);
  return g === null ? E.left(notFound('group', id)) : E.right(g);
};

export const listGroups = async (ports: Ports, actor: Actor, decoded: DecodedQuery<PageRequest>): Promise<Outcome<GroupList>> => {
  const ok = readable(actor);
  if (E.isLeft(ok)) return ok;
  const page = acceptPage(decoded);
  if (E.isLeft(page)) return page;
  const found = await ports.groups.list(pageOffset(page.right), page.right.perPage);
  return E.right({ items: found.items, total: found.total, page: page.right });
};

export const getGroup = async (ports: Ports, actor: Actor, id: GroupId): Promise<Outcome<Group>> => {
  const ok = readable(actor);
  return E.isLeft(ok) ? ok : loadGroup(ports, id);
};

export const groupMembers = async (
  ports: Ports,
  actor: Actor,
  id: GroupId,
  decoded: DecodedQuery<PageRequest>,
): Promise<Outcome<UserList>> => {
  const ok = readable(actor);
  if (E.isLeft(ok)) return ok;
  const page = acceptPage(decoded);
  if (E.isLeft(page)) return page;
  const group = await loadGroup(ports, id);
  if (E.isLeft(group)) return group;
  const found = await ports.users.list(id, pageOffset(page.right), page.right.perPage);
  return E.right({ items: found.items, total: found.total, page: page.right });
};

export const createGroupUseCase = async (ports: Ports, actor: Actor, decoded: DecodedBody<GroupCreateInput>): Promise<Outcome<Group>> => {
  const ok = writable(actor);
  if (E.isLeft(ok)) return ok;
  const input = acceptBody(decoded);
  if (E.isLeft(input)) return input;
  const now = ports.clock.now();
  const group: Group = {
    id: (await ports.ids.next('group')) as GroupId,
    name: input.right.name,
    description: input.right.description ?? '',
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  return (await ports.groups.insert(group, byActor(actor))) === 'ok' ? E.right(group) : E.left(validationFailed([nameTaken(group.name)]));
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
    const held = checkPrecondition(options, current);
    if (E.isLeft(held)) return held;
    const next = applyGroupChanges(current, changes(current), ports.clock.now());
    if (next === current) return E.right(current);
    const written = await ports.groups.update(next, current.version, byActor(actor));
    if (written === 'name_taken') return E.left(validationFailed([nameTaken(next.name)]));
    return written === 'ok' ? E.right(next) : 'retry';
  }, options);

export const replaceGroupUseCase = (
  ports: Ports,
  actor: Actor,
  id: GroupId,
  decoded: DecodedBody<GroupCreateInput>,
  options: WriteOptions<Group> = {},
): Promise<Outcome<Group>> => {
  const input = acceptBody(decoded);
  if (E.isLeft(input)) return Promise.resolve(input);
  return updateGroup(ports, actor, id, () => ({ name: input.right.name, description: input.right.description ?? '' }), options);
};

export const patchGroupUseCase = (
  ports: Ports,
  actor: Actor,
  id: GroupId,
  decoded: DecodedBody<GroupPatchInput>,
  options: WriteOptions<Group> = {},
): Promise<Outcome<Group>> => {
  const accepted = acceptBody(decoded);
  if (E.isLeft(accepted)) return Promise.resolve(accepted);
  const input = accepted.right;
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
  const held = checkPrecondition(options, loaded.right);
  if (E.isLeft(held)) return held;
  // Members leave the group and its tickets lose it; users and tickets themselves stay. The
  // follow-ups' events carry the request's actor (contract §8.3).
  const now = ports.clock.now();
  const followUps: FollowUp[] = [{ op: 'removeGroup', groupId: id, now }, { op: 'clearGroup', groupId: id, now }];
  if (!(await ports.groups.delete(id, now, byActor(actor), followUps))) return E.left(notFound('group', id));
  return E.right(loaded.right);
};
