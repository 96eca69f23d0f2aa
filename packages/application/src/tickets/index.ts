import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { operationNeeds as needs, scoped } from '../scopes.js';
import { getTicket, listTickets } from './read.js';
import { createTicket, deleteTicket, patchTicket, replaceTicket } from './write.js';

/** The ticket use cases, each bound to the scope it needs. */
export const ticketUseCases = (ports: Ports): Application['tickets'] => ({
  list: scoped(needs.tickets.list, (actor, query) => listTickets(ports, actor, query)),
  get: scoped(needs.tickets.get, (actor, id, embed) => getTicket(ports, actor, id, embed)),
  create: scoped(needs.tickets.create, (actor, input) => createTicket(ports, actor, input)),
  replace: scoped(needs.tickets.replace, (actor, id, input, options) =>
    replaceTicket(ports, actor, id, input, options),
  ),
  patch: scoped(needs.tickets.patch, (actor, id, input, options) => patchTicket(ports, actor, id, input, options)),
  delete: scoped(needs.tickets.delete, (actor, id, options) => deleteTicket(ports, actor, id, options)),
});
