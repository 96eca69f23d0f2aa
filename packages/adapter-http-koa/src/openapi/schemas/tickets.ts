import { answerProperties, bodySchema } from '../../resources/field-table.js';
import { ticketTable } from '../../resources/tickets.js';
import type { Json } from '../json.js';

// A ticket as the API answers it (Ticket, TicketSelection) and as it takes it (TicketCreate,
// TicketReplace, TicketPatch): the properties are the ticket's field table's
// (resources/tickets.ts); the prose of each schema is here.

export const ticketSchemas = (): Record<string, Json> => {
  const properties = answerProperties(ticketTable);
  return {
    Ticket: {
      type: 'object',
      description: 'A support ticket, as POST, PUT, PATCH and DELETE answer it (every field).',
      additionalProperties: false,
      required: Object.keys(properties),
      properties,
    },
    TicketSelection: {
      type: 'object',
      description:
        'A ticket as a read answers it: every field of Ticket, or with fields=<list> only the fields named there (in the order of Ticket). embed expands customer, assigned_user and group.',
      additionalProperties: false,
      properties,
    },
    TicketCreate: bodySchema(
      ticketTable,
      'create',
      'POST /v1/tickets. Unknown and server-set fields are refused (422, one error per field); state is not accepted: new tickets start open.',
    ),
    TicketReplace: bodySchema(
      ticketTable,
      'replace',
      'PUT: every writable field; omitted optional ones return to their defaults (the customer is kept).',
    ),
    TicketPatch: bodySchema(
      ticketTable,
      'patch',
      'PATCH (JSON merge patch, RFC 7396): only the fields given change; null resets an optional field to its default. A customer may change subject, summary and state only.',
    ),
  };
};
