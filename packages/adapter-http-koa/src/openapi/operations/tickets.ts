import {
  curlOn,
  listOf,
  ticketListParams,
  roles,
  ticketErrors,
  writable,
  writeErrors,
  type Operation,
  type OperationContext,
} from './operation.js';
import { ref } from '../json.js';

// routes/tickets.ts: tickets, the saved search and the deprecated singular alias.

/** The README's walk-through: my open tickets, most urgent first. */
const queueExample = '?assigned_user_id=me&state=open&sort=-priority';

export const ticketOperations = ({ origin, ex }: OperationContext): Operation[] => {
  const curl = curlOn(origin);
  // The deprecated alias answers as the ticket does; only its id, wording and headers differ.
  const readTicket = (path: string, deprecated: boolean): Operation => ({
    path,
    method: 'get',
    id: deprecated ? 'getTicketSingularAlias' : 'getTicket',
    tag: 'Tickets',
    summary: deprecated ? 'Read a ticket (deprecated singular alias)' : 'Read a ticket',
    description: deprecated
      ? 'The spelling of the embed example in the original specification. Same answer as GET /v1/tickets/{ticket_id}, plus Deprecation, Sunset and Link rel="deprecation" headers; see GET /v1/deprecations for its schedule.'
      : `One ticket. fields and embed as in the list.${roles("customer: own tickets only (another's is 404); agent, admin: any.")}`,
    access: 'token',
    ...(deprecated ? { deprecated: true } : {}),
    params: ['TicketId', 'Fields', 'Embed'],
    success: {
      status: 200,
      shape: 'single',
      description: 'The ticket (only the fields asked for with fields).',
      schema: ref('TicketSelection'),
      example: ex.ticketEmbedded,
      ...(deprecated ? { extraHeaders: ['Deprecation', 'Sunset', 'Link'] as const } : {}),
    },
    errors: ticketErrors,
    curl: curl('GET', `${path.replace('{ticket_id}', '7')}?embed=customer.name`),
  });
  return [
    {
      path: '/v1/tickets',
      method: 'get',
      id: 'listTickets',
      tag: 'Tickets',
      summary: 'List tickets',
      description:
        'A bare JSON array, paged (Link, X-Total-Count). Without state, tickets of every state; deleted tickets never. ' +
        'Queue filters (assigned_user_id, group_id, customer_id, priority, tags, updated_since) combine with each other and with state, q, sort and paging: AND across parameters, OR within a list (tags: all of them); a malformed value is 400 naming it. ' +
        `For example, my open tickets, most urgent first: ${queueExample}; group 3's unassigned queue: ?group_id=3&assigned_user_id=none; what changed since a last look: ?updated_since=2026-11-25T08:00:00Z&sort=updated_at.` +
        roles('customer: own tickets only (a filter only narrows them); agent, admin: all.'),
      access: 'token',
      params: ticketListParams,
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of tickets.',
        schema: listOf('TicketSelection'),
        example: [ex.ticket()],
      },
      errors: [],
      curl: curl('GET', `/v1/tickets${queueExample}`),
    },
    {
      path: '/v1/tickets/recently_closed',
      method: 'get',
      id: 'listRecentlyClosedTickets',
      tag: 'Tickets',
      summary: 'List recently closed tickets',
      description: `The saved search: closed tickets whose closed_at is within the last 7 days; default sort -closed_at. Same as GET /v1/tickets?q=recently_closed.${roles('as the list.')}`,
      access: 'token',
      params: ticketListParams,
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of recently closed tickets.',
        schema: listOf('TicketSelection'),
        example: [ex.ticket({ state: 'closed', closed_at: '2026-01-06T10:00:00.000Z' })],
      },
      errors: [],
      curl: curl('GET', '/v1/tickets/recently_closed'),
    },
    {
      path: '/v1/tickets',
      method: 'post',
      id: 'createTicket',
      tag: 'Tickets',
      summary: 'Create a ticket',
      description: `New tickets start open. A customer creating a ticket is its customer; agents and admins give customer_id.${roles('any.')}`,
      access: 'token',
      body: { schema: 'TicketCreate', example: ex.ticketCreate },
      success: writable('created', 'Ticket', ex.ticket()),
      errors: writeErrors,
      curl: curl('POST', '/v1/tickets', ex.ticketCreate),
    },
    readTicket('/v1/tickets/{ticket_id}', false),
    readTicket('/v1/ticket/{ticket_id}', true),
    {
      path: '/v1/tickets/{ticket_id}',
      method: 'put',
      id: 'replaceTicket',
      tag: 'Tickets',
      summary: 'Replace a ticket',
      description: `Every writable field: required ones must be present, omitted optional ones return to their defaults (the customer is kept).${roles('customer: own tickets, subject, summary and state only; agent, admin: any.')}`,
      access: 'token',
      params: ['TicketId'],
      body: { schema: 'TicketReplace', example: ex.ticketReplace },
      success: writable('written', 'Ticket', ex.ticket({ state: 'pending', priority: 'high', tags: ['hardware'] })),
      errors: [...ticketErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PUT', '/v1/tickets/7', ex.ticketReplace),
    },
    {
      path: '/v1/tickets/{ticket_id}',
      method: 'patch',
      id: 'patchTicket',
      tag: 'Tickets',
      summary: 'Change fields of a ticket',
      description: `JSON merge patch (RFC 7396): only the fields given change; null resets to the default.${roles('customer: own tickets, subject, summary and state (close or reopen); agent, admin: any.')}`,
      access: 'token',
      params: ['TicketId'],
      body: { schema: 'TicketPatch', example: ex.ticketPatch, mergePatch: true },
      success: writable(
        'written',
        'Ticket',
        ex.ticket({ state: 'closed', assigned_user: null, closed_at: '2026-01-06T10:00:00.000Z' }),
      ),
      errors: [...ticketErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PATCH', '/v1/tickets/7', ex.ticketPatch),
    },
    {
      path: '/v1/tickets/{ticket_id}',
      method: 'delete',
      id: 'deleteTicket',
      tag: 'Tickets',
      summary: 'Delete a ticket',
      description: `Soft delete: afterwards the ticket and its messages answer 410 and leave every list. Answers the ticket as it was.${roles('admin.')}`,
      access: 'token',
      params: ['TicketId'],
      success: writable('written', 'Ticket', ex.ticket()),
      errors: [...ticketErrors, 'PreconditionFailed'],
      curl: curl('DELETE', '/v1/tickets/7'),
    },
  ];
};
