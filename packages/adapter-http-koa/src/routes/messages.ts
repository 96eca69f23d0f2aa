import type { Message, MessageNumber, TicketId } from '@support/domain';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { MessageCreateBody, MessagePatchBody, MessageReplaceBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { created, ok } from '../reply.js';
import { messageRepresentation } from '../representations/message.js';
import type { AppRouter, RouteContext, Services } from '../state.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';

// Messages exist only inside their ticket: the list carries their data, not links.

export const messageRoutes = (router: AppRouter, { app, urls }: Services): void => {
  const represent = (m: Message): Record<string, unknown> => messageRepresentation(urls, m);
  const ticketId = (ctx: RouteContext): TicketId => idParam(ctx, 'ticketId', 'ticket') as TicketId;
  const number = (ctx: RouteContext): MessageNumber => idParam(ctx, 'messageId', 'message') as MessageNumber;
  const written = (ctx: RouteContext, m: Message): void => {
    ctx.state.reply = ok(represent(m), { lastModified: m.updatedAt });
  };

  router.get('/v1/tickets/:ticketId/messages', async (ctx) => {
    const l = unwrap(await app.messages.list(actorOf(ctx), ticketId(ctx), decodePage(ctx.query)));
    ctx.state.reply = ok(l.items.map(represent), { page: pageInfo(l) });
  });

  router.post('/v1/tickets/:ticketId/messages', async (ctx) => {
    const actor = actorOf(ctx);
    const id = ticketId(ctx);
    const body = await readBody(ctx, [mediaTypes.json]);
    const m = unwrap(await app.messages.create(actor, id, decodeBody(MessageCreateBody, body)));
    ctx.state.reply = created(represent(m), urls.message(m.ticketId, m.number), m.updatedAt);
  });

  router.get('/v1/tickets/:ticketId/messages/:messageId', async (ctx) => {
    written(ctx, unwrap(await app.messages.get(actorOf(ctx), ticketId(ctx), number(ctx))));
  });

  router.put('/v1/tickets/:ticketId/messages/:messageId', async (ctx) => {
    const actor = actorOf(ctx);
    const [t, n] = [ticketId(ctx), number(ctx)];
    const body = await readBody(ctx, [mediaTypes.json]);
    written(
      ctx,
      unwrap(
        await app.messages.replace(
          actor,
          t,
          n,
          decodeBody(MessageReplaceBody, body),
          ifMatchOption(ctx.get('If-Match'), represent),
        ),
      ),
    );
  });

  router.patch('/v1/tickets/:ticketId/messages/:messageId', async (ctx) => {
    const actor = actorOf(ctx);
    const [t, n] = [ticketId(ctx), number(ctx)];
    const body = await readBody(ctx, [mediaTypes.json, mediaTypes.mergePatch]);
    written(
      ctx,
      unwrap(
        await app.messages.patch(
          actor,
          t,
          n,
          decodeBody(MessagePatchBody, body),
          ifMatchOption(ctx.get('If-Match'), represent),
        ),
      ),
    );
  });

  router.delete('/v1/tickets/:ticketId/messages/:messageId', async (ctx) => {
    const actor = actorOf(ctx);
    written(
      ctx,
      unwrap(
        await app.messages.delete(actor, ticketId(ctx), number(ctx), ifMatchOption(ctx.get('If-Match'), represent)),
      ),
    );
  });
};
