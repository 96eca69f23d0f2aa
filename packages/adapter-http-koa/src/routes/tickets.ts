import { operationNeeds as n, repeatAccess as r } from '@support/application';
import { examples } from '../openapi/examples.js';
import { ref } from '../openapi/json.js';
import {
  curlOn,
  listOf,
  roles,
  ticketErrors,
  ticketListParams,
  writable,
  writeErrors,
  type Declaration,
} from '../openapi/operation.js';
import type { TicketView } from '@support/application';
import { METHODS } from 'node:http';
import type { TicketId } from '@support/domain';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { deprecationHeaders, singularTicketAlias } from '../conventions/deprecation.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { setHeaders } from '../conventions/response-headers.js';
import { TicketCreateBody, TicketPatchBody, TicketReplaceBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodeTicketList, decodeTicketRead, recentlyClosedAlias } from '../decode/ticket-query.js';
import { problem } from '../errors/http-problem.js';
import { created, ok, okCached } from '../reply.js';
import { ticketRepresentation } from '../representations/ticket.js';
import { cacheableTicket, cacheableTicketList } from '../representations/ticket-key.js';
import type { RouteContext, Services } from '../state.js';
import { refusalRoute, type DeclaringRouter } from './declare.js';
import { writeRoute } from './write-route.js';
import { ticketNames } from '../resources/tickets.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';

/** /v1/tickets/recently_closed is a saved search: it reads, nothing else. */
const recentlyClosedAllow = 'HEAD, GET';

/** The README's walk-through: my open tickets, most urgent first. */
const queueExample = '?assigned_user_id=me&state=open&sort=-priority';

export const ticketRoutes = (api: DeclaringRouter, { app, urls, options }: Services): void => {
  const curl = curlOn(urls.origin);
  const ex = examples(urls.origin);
  // The deprecated alias answers as the ticket does; only its id, wording and headers differ.
  const readTicket = (path: string, deprecated: boolean): Declaration => ({
    id: deprecated ? 'getTicketSingularAlias' : 'getTicket',
    tag: 'Tickets',
    summary: deprecated ? 'Read a ticket (deprecated singular alias)' : 'Read a ticket',
    description: deprecated
      ? 'The spelling of the embed example in the original specification. Same answer as GET /v1/tickets/{ticket_id}, plus Deprecation, Sunset and Link rel="deprecation" headers; see GET /v1/deprecations for its schedule.'
      : `One ticket. fields and embed as in the list.${roles("customer: own tickets only (another's is 404); agent, admin: any.")}`,
    access: 'token',
    needs: n.tickets.get,
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
  const represent = (v: TicketView): Record<string, unknown> => ticketRepresentation(urls, v);
  const ticketId = (ctx: RouteContext): TicketId => idParam(ctx, 'ticketId', 'ticket') as TicketId;
  const written = (ctx: RouteContext, view: TicketView): void => {
    ctx.state.reply = ok(represent(view), { lastModified: view.ticket.updatedAt });
  };
  const lastModified = (view: TicketView): number => view.ticket.updatedAt;

  const list =
    (viaAlias: boolean) =>
    async (ctx: RouteContext): Promise<void> => {
      const { query, shown } = decodeTicketList(ctx.query, viaAlias);
      const l = unwrap(await app.tickets.list(actorOf(ctx), query));
      ctx.state.reply = okCached(cacheableTicketList(urls, l.items, shown), { page: pageInfo(l) });
    };

  const read = async (ctx: RouteContext): Promise<void> => {
    const actor = actorOf(ctx);
    const { embed, shown } = decodeTicketRead(ctx.query);
    const view = unwrap(await app.tickets.get(actor, ticketId(ctx), embed));
    ctx.state.reply = okCached(cacheableTicket(urls, view, shown), { lastModified: view.ticket.updatedAt });
  };

  api.get(
    '/v1/tickets',
    {
      id: 'listTickets',
      tag: 'Tickets',
      summary: 'List tickets',
      description:
        'A bare JSON array, paged (Link, X-Total-Count). Without state, tickets of every state; deleted tickets never. ' +
        'Queue filters (assigned_user_id, group_id, customer_id, priority, tags, updated_since) combine with each other and with state, q, sort and paging: AND across parameters, OR within a list (tags: all of them); a malformed value is 400 naming it. ' +
        `For example, my open tickets, most urgent first: ${queueExample}; group 3's unassigned queue: ?group_id=3&assigned_user_id=none; what changed since a last look: ?updated_since=2026-11-25T08:00:00Z&sort=updated_at.` +
        roles('customer: own tickets only (a filter only narrows them); agent, admin: all.'),
      access: 'token',
      needs: n.tickets.list,
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
    list(false),
  );
  // Before /v1/tickets/:ticketId, which would otherwise take "recently_closed" for an id.
  api.get(
    `/v1/tickets/${recentlyClosedAlias}`,
    {
      id: 'listRecentlyClosedTickets',
      tag: 'Tickets',
      summary: 'List recently closed tickets',
      description: `The saved search: closed tickets whose closed_at is within the last 7 days; default sort -closed_at. Same as GET /v1/tickets?q=recently_closed.${roles('as the list.')}`,
      access: 'token',
      needs: n.tickets.list,
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
    list(true),
  );
  // Every other method on the saved search, before the :ticketId routes would take
  // "recently_closed" for an id: OPTIONS says what it offers, any other is 405 with that Allow
  // (the router's own 405 would offer the :ticketId methods, POST's listed PUT, PATCH, DELETE).
  api.router.register(
    `/v1/tickets/${recentlyClosedAlias}`,
    METHODS.filter((m) => m !== 'GET' && m !== 'HEAD' && m !== 'CONNECT'),
    (ctx) => {
      if (ctx.method === 'OPTIONS') {
        ctx.state.reply = { status: 204, body: undefined, headers: { Allow: recentlyClosedAllow } };
        return;
      }
      throw problem('methodNotAllowed', `${ctx.method} is not allowed here; allowed: ${recentlyClosedAllow}`, {
        headers: { Allow: recentlyClosedAllow },
      });
    },
    { name: refusalRoute },
  );
  api.get('/v1/tickets/:ticketId', readTicket('/v1/tickets/{ticket_id}', false), read);

  const alias = options.deprecations.find((d) => d.id === singularTicketAlias);
  api.get(
    '/v1/ticket/:ticketId',
    readTicket('/v1/ticket/{ticket_id}', true),
    async (ctx, next) => {
      if (alias !== undefined) setHeaders(ctx.state.headers, deprecationHeaders(urls.origin, alias));
      await next();
    },
    read,
  );

  api.post(
    '/v1/tickets',
    {
      id: 'createTicket',
      tag: 'Tickets',
      summary: 'Create a ticket',
      description: `New tickets start open. A customer creating a ticket is its customer; agents and admins give customer_id.${roles('any.')}`,
      access: 'token',
      needs: n.tickets.create,
      keyed: { access: r.createTicket },
      body: { schema: 'TicketCreate', example: ex.ticketCreate },
      success: writable('created', 'Ticket', ex.ticket()),
      errors: writeErrors,
      curl: curl('POST', '/v1/tickets', ex.ticketCreate),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      const body = await readBody(ctx, [mediaTypes.json]);
      const view = unwrap(await app.tickets.create(actor, decodeBody(TicketCreateBody, body)), ticketNames);
      ctx.state.reply = created(represent(view), urls.ticket(view.ticket.id), view.ticket.updatedAt);
    },
  );

  api.put(
    '/v1/tickets/:ticketId',
    {
      id: 'replaceTicket',
      tag: 'Tickets',
      summary: 'Replace a ticket',
      description: `Every writable field: required ones must be present, omitted optional ones return to their defaults (the customer is kept).${roles('customer: own tickets, subject, summary and state only; agent, admin: any.')}`,
      access: 'token',
      needs: n.tickets.replace,
      params: ['TicketId'],
      body: { schema: 'TicketReplace', example: ex.ticketReplace },
      success: writable('written', 'Ticket', ex.ticket({ state: 'pending', priority: 'high', tags: ['hardware'] })),
      errors: [...ticketErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PUT', '/v1/tickets/7', ex.ticketReplace),
    },
    writeRoute('put', {
      target: ticketId,
      codec: TicketReplaceBody,
      run: (actor, id, body, options) => app.tickets.replace(actor, id, body, options),
      represent,
      lastModified,
      names: ticketNames,
    }),
  );

  api.patch(
    '/v1/tickets/:ticketId',
    {
      id: 'patchTicket',
      tag: 'Tickets',
      summary: 'Change fields of a ticket',
      description: `JSON merge patch (RFC 7396): only the fields given change; null resets to the default.${roles('customer: own tickets, subject, summary and state (close or reopen); agent, admin: any.')}`,
      access: 'token',
      needs: n.tickets.patch,
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
    writeRoute('patch', {
      target: ticketId,
      codec: TicketPatchBody,
      run: (actor, id, body, options) => app.tickets.patch(actor, id, body, options),
      represent,
      lastModified,
      names: ticketNames,
    }),
  );

  api.delete(
    '/v1/tickets/:ticketId',
    {
      id: 'deleteTicket',
      tag: 'Tickets',
      summary: 'Delete a ticket',
      description: `Soft delete: afterwards the ticket and its messages answer 410 and leave every list. Answers the ticket as it was.${roles('admin.')}`,
      access: 'token',
      needs: n.tickets.delete,
      params: ['TicketId'],
      success: writable('written', 'Ticket', ex.ticket()),
      errors: [...ticketErrors, 'PreconditionFailed'],
      curl: curl('DELETE', '/v1/tickets/7'),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      written(
        ctx,
        unwrap(await app.tickets.delete(actor, ticketId(ctx), ifMatchOption(ctx.get('If-Match'), represent))),
      );
    },
  );
};
