import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { operationNeeds as needs, scoped } from '../scopes.js';
import { createPersonalToken, getPersonalToken, listPersonalTokens, revokePersonalToken } from './use-cases.js';

/** The personal access token use cases, each bound to the scope it needs. */
export const tokenUseCases = (ports: Ports): Application['tokens'] => ({
  create: scoped(needs.tokens.create, (actor, input) => createPersonalToken(ports, actor, input)),
  list: scoped(needs.tokens.list, (actor, owner, page) => listPersonalTokens(ports, actor, owner, page)),
  get: scoped(needs.tokens.get, (actor, owner, id) => getPersonalToken(ports, actor, owner, id)),
  revoke: scoped(needs.tokens.revoke, (actor, owner, id) => revokePersonalToken(ports, actor, owner, id)),
});
