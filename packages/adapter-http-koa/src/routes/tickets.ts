import type { TicketView } from '@support/application';
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
import type { AppRouter, RouteContext, Services } from '../state.js';
import { ticketNames } from '../resources/tickets.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';

/** /v1/tickets/recently_closed is a saved search: it reads, nothing else. */
const recentlyClosedAllow = 'HEAD, GET';

export const ticketRoutes = (router: AppRouter, { app, urls, options }: Services): void => {
  const represent = (v: TicketView): Record<string, unknown> => ticketRepresentation(urls, v);
  const ticketId = (ctx: RouteContext): TicketId => {
    // PUT/PATCH/DELETE /v1/tickets/recently_closed reach the :ticketId routes: the URL exists
    // (GET), so another method on it is 405, not "no ticket recently_closed".
    if (ctx.params.ticketId === recentlyClosedAlias && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw problem('methodNotAllowed', `${ctx.method} is not allowed here; allowed: ${recentlyClosedAllow}`, {
        headers: { Allow: recentlyClosedAllow },
      });
    }
    return idParam(ctx, 'ticketId', 'ticket') as TicketId;
  };
  const written = (ctx: RouteContext, view: TicketView): void => {
    ctx.state.reply = ok(represent(view), { lastModified: view.ticket.updatedAt });
  };

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

  router.get('/v1/tickets', list(false));
  // Before /v1/tickets/:ticketId, which would otherwise take "recently_closed" for an id.
  router.get(`/v1/tickets/${recentlyClosedAlias}`, list(true));
  // Else OPTIONS would list the :ticketId methods, which answer 405 here.
  router.options(`/v1/tickets/${recentlyClosedAlias}`, (ctx) => {
    ctx.state.reply = { status: 204, body: undefined, headers: { Allow: recentlyClosedAllow } };
  });
  router.get('/v1/tickets/:ticketId', read);

  const alias = options.deprecations.find((d) => d.id === singularTicketAlias);
  router.get(
    '/v1/ticket/:ticketId',
    async (ctx, next) => {
      if (alias !== undefined) setHeaders(ctx.state.headers, deprecationHeaders(urls.origin, alias));
      await next();
    },
    read,
  );

  router.post('/v1/tickets', async (ctx) => {
    const actor = actorOf(ctx);
    const body = await readBody(ctx, [mediaTypes.json]);
    const view = unwrap(await app.tickets.create(actor, decodeBody(TicketCreateBody, body)), ticketNames);
    ctx.state.reply = created(represent(view), urls.ticket(view.ticket.id), view.ticket.updatedAt);
  });

  router.put('/v1/tickets/:ticketId', async (ctx) => {
    const actor = actorOf(ctx);
    const id = ticketId(ctx);
    const body = await readBody(ctx, [mediaTypes.json]);
    written(
      ctx,
      unwrap(
        await app.tickets.replace(
          actor,
          id,
          decodeBody(TicketReplaceBody, body),
          ifMatchOption(ctx.get('If-Match'), represent),
        ),
        ticketNames,
      ),
    );
  });

  router.patch('/v1/tickets/:ticketId', async (ctx) => {
    const actor = actorOf(ctx);
    const id = ticketId(ctx);
    const body = await readBody(ctx, [mediaTypes.json, mediaTypes.mergePatch]);
    written(
      ctx,
      unwrap(
        await app.tickets.patch(
          actor,
          id,
          decodeBody(TicketPatchBody, body),
          ifMatchOption(ctx.get('If-Match'), represent),
        ),
        ticketNames,
      ),
    );
  });

  router.delete('/v1/tickets/:ticketId', async (ctx) => {
    const actor = actorOf(ctx);
    written(ctx, unwrap(await app.tickets.delete(actor, ticketId(ctx), ifMatchOption(ctx.get('If-Match'), represent))));
  });
};
