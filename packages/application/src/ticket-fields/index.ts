import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { operationNeeds as needs, scoped } from '../scopes.js';
import {
  createTicketField,
  deleteTicketField,
  getTicketField,
  listTicketFields,
  patchTicketFieldUseCase,
} from './use-cases.js';

export type { TicketFieldList } from './use-cases.js';

/** The custom field definition use cases, each bound to the scope it needs. */
export const ticketFieldUseCases = (ports: Ports): Application['ticketFields'] => ({
  described: () => ports.ticketFields.list(),
  list: scoped(needs.ticketFields.list, (actor, page) => listTicketFields(ports, actor, page)),
  get: scoped(needs.ticketFields.get, (actor, id) => getTicketField(ports, actor, id)),
  create: scoped(needs.ticketFields.create, (actor, input) => createTicketField(ports, actor, input)),
  patch: scoped(needs.ticketFields.patch, (actor, id, input, options) =>
    patchTicketFieldUseCase(ports, actor, id, input, options),
  ),
  delete: scoped(needs.ticketFields.delete, (actor, id, options) => deleteTicketField(ports, actor, id, options)),
});
