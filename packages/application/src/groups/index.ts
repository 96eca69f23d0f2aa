import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { operationNeeds as needs, scoped } from '../scopes.js';
import {
  createGroup,
  deleteGroup,
  getGroup,
  listGroupMembers,
  listGroups,
  patchGroup,
  replaceGroup,
} from './use-cases.js';

/** The group use cases, each bound to the scope it needs. */
export const groupUseCases = (ports: Ports): Application['groups'] => ({
  list: scoped(needs.groups.list, (actor, page) => listGroups(ports, actor, page)),
  get: scoped(needs.groups.get, (actor, id) => getGroup(ports, actor, id)),
  members: scoped(needs.groups.members, (actor, id, page) => listGroupMembers(ports, actor, id, page)),
  create: scoped(needs.groups.create, (actor, input) => createGroup(ports, actor, input)),
  replace: scoped(needs.groups.replace, (actor, id, input, options) => replaceGroup(ports, actor, id, input, options)),
  patch: scoped(needs.groups.patch, (actor, id, input, options) => patchGroup(ports, actor, id, input, options)),
  delete: scoped(needs.groups.delete, (actor, id, options) => deleteGroup(ports, actor, id, options)),
});
