import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { operationNeeds as needs, scoped } from '../scopes.js';
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from './use-cases.js';

/** The user use cases, each bound to the scope it needs. */
export const userUseCases = (ports: Ports): Application['users'] => ({
  me: scoped(needs.users.me, (actor) => getUser(ports, actor, 'me')),
  list: scoped(needs.users.list, (actor, page) => listUsers(ports, actor, page)),
  get: scoped(needs.users.get, (actor, id) => getUser(ports, actor, id)),
  create: scoped(needs.users.create, (actor, input) => createUser(ports, actor, input)),
  replace: scoped(needs.users.replace, (actor, id, input, options) => replaceUser(ports, actor, id, input, options)),
  patch: scoped(needs.users.patch, (actor, id, input, options) => patchUser(ports, actor, id, input, options)),
  delete: scoped(needs.users.delete, (actor, id, options) => deleteUser(ports, actor, id, options)),
});
