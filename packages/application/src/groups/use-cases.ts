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
  type DomainError,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { byActor, type Actor } from '../actor.js';
import type { WriteOptions } from '../precondition.js';
import { acceptBody, acceptPage, withBody, type DecodedBody, type DecodedQuery } from '../decoded.js';
import { versionedWrite, type VersionedWrite } from '../versioned-write.js';
import { requireRole } from '../policy.js';
import type { FollowUp, Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import type { GroupList, UserList } from '../views.js';

const nameTaken = (name: string): FieldError =>
  fieldError('name', 'not_unique', `a group named "${name}" already exists`);

const readable = (actor: Actor): Outcome<null> => {
  const denied = requireRole(actor, ['agent', 'admin'], 'read groups');
  return denied === null ? E.right(null) : E.left(denied);
};
const writable = (actor: Actor): DomainError | null => requireRole(actor, ['admin'], 'change groups');

const loadGroup = async (ports: Ports, id: GroupId): Promise<Outcome<Group>> => {
  const g = await ports.groups.findById(id);
  return g === null ? E.left(notFound('group', id)) : E.right(g);
};

export const listGroups = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedQuery<PageRequest>,
): Promise<Outcome<GroupList>> => {
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

export const listGroupMembers = async (
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

export const createGroup = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedBody<GroupCreateInput>,
): Promise<Outcome<Group>> => {
  const denied = writable(actor);
  if (denied !== null) return E.left(denied);
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
  return (await ports.groups.insert(group, byActor(actor))) === 'ok'
    ? E.right(group)
    : E.left(validationFailed([nameTaken(group.name)]));
};

/** What every write of a group shares: read as the caller may (403 for a customer), changed by admins only. */
const groupWrite = (ports: Ports, actor: Actor, id: GroupId): Pick<VersionedWrite<Group>, 'load' | 'allowed'> => ({
  load: () => getGroup(ports, actor, id),
  allowed: () => writable(actor),
});

/** PUT and PATCH of a group differ only in how the body becomes changes. */
const groupUpdate =
  <I>(changesOf: (input: I, current: Group) => GroupChanges) =>
  (
    ports: Ports,
    actor: Actor,
    id: GroupId,
    decoded: DecodedBody<I>,
    options: WriteOptions<Group> = {},
  ): Promise<Outcome<Group>> =>
    withBody(decoded, (input) =>
      versionedWrite(
        {
          ...groupWrite(ports, actor, id),
          change: (current) => E.right(applyGroupChanges(current, changesOf(input, current), ports.clock.now())),
          write: async (next, current) => {
            const written = await ports.groups.update(next, current.version, byActor(actor));
            return written === 'name_taken' ? validationFailed([nameTaken(next.name)]) : written === 'ok';
          },
        },
        options,
      ),
    );

export const replaceGroup = groupUpdate<GroupCreateInput>((input) => ({
  name: input.name,
  description: input.description ?? '',
}));

export const patchGroup = groupUpdate<GroupPatchInput>((input, g) => ({
  name: input.name ?? g.name,
  description: input.description === undefined ? g.description : (input.description ?? ''),
}));

export const deleteGroup = (
  ports: Ports,
  actor: Actor,
  id: GroupId,
  options: WriteOptions<Group> = {},
): Promise<Outcome<Group>> =>
  versionedWrite(
    {
      ...groupWrite(ports, actor, id),
      // Members leave the group and its tickets lose it; users and tickets themselves stay. The
      // follow-ups' events carry the request's actor (contract §8.3).
      write: async () => {
        const now = ports.clock.now();
        const followUps: FollowUp[] = [
          { op: 'removeGroup', groupId: id, now },
          { op: 'clearGroup', groupId: id, now },
        ];
        return (await ports.groups.delete(id, now, byActor(actor), followUps)) || notFound('group', id);
      },
    },
    options,
  );
