import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { operationNeeds as needs, scoped } from '../scopes.js';
import { createMessage, deleteMessage, getMessage, listMessages, patchMessage, replaceMessage } from './use-cases.js';

/** The message use cases, each bound to the scope it needs. */
export const messageUseCases = (ports: Ports): Application['messages'] => ({
  list: scoped(needs.messages.list, (actor, ticketId, page) => listMessages(ports, actor, ticketId, page)),
  get: scoped(needs.messages.get, (actor, ticketId, number) => getMessage(ports, actor, ticketId, number)),
  create: scoped(needs.messages.create, (actor, ticketId, input) => createMessage(ports, actor, ticketId, input)),
  replace: scoped(needs.messages.replace, (actor, ticketId, number, input, options) =>
    replaceMessage(ports, actor, ticketId, number, input, options),
  ),
  patch: scoped(needs.messages.patch, (actor, ticketId, number, input, options) =>
    patchMessage(ports, actor, ticketId, number, input, options),
  ),
  delete: scoped(needs.messages.delete, (actor, ticketId, number, options) =>
    deleteMessage(ports, actor, ticketId, number, options),
  ),
});
