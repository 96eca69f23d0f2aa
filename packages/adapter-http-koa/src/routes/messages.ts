import { operationNeeds as n, repeatAccess as r } from '@support/application';
import type { Message, MessageNumber, TicketId } from '@support/domain';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { MessageCreateBody, MessagePatchBody, MessageReplaceBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { examples } from '../openapi/examples.js';
import { ref } from '../openapi/json.js';
import { curlOn, listOf, roles, ticketErrors, writable, writeErrors } from '../openapi/operation.js';
import { created, ok } from '../reply.js';
import { messageRepresentation } from '../representations/message.js';
import type { RouteContext, Services } from '../state.js';
import type { DeclaringRouter } from './declare.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';
import { writeRoute } from './write-route.js';
import { messageNames } from '../resources/messages.js';

// Messages exist only inside their ticket (a sub-resource): the list carries their data, not links.

export const messageRoutes = (api: DeclaringRouter, { app, urls }: Services): void => {
  const curl = curlOn(urls.origin);
  const ex = examples(urls.origin);
  const represent = (m: Message): Record<string, unknown> => messageRepresentation(urls, m);
  const ticketId = (ctx: RouteContext): TicketId => idParam(ctx, 'ticketId', 'ticket') as TicketId;
  const number = (ctx: RouteContext): MessageNumber => idParam(ctx, 'messageId', 'message') as MessageNumber;
  const target = (ctx: RouteContext): [TicketId, MessageNumber] => [ticketId(ctx), number(ctx)];
  const written = (ctx: RouteContext, m: Message): void => {
    ctx.state.reply = ok(represent(m), { lastModified: m.updatedAt });
  };
  const lastModified = (m: Message): number => m.updatedAt;

  api.get(
    '/v1/tickets/:ticketId/messages',
    {
      id: 'listMessages',
      tag: 'Messages',
      summary: "List a ticket's messages",
      description: `The messages' data (they exist only inside the ticket) as a bare array, oldest first, paged like tickets.${roles('customer: own tickets, never internal notes; agent, admin: all.')}`,
      access: 'token',
      needs: n.messages.list,
      params: ['TicketId', 'Page', 'PerPage'],
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of messages.',
        schema: listOf('Message'),
        example: [ex.message()],
      },
      errors: ticketErrors,
      curl: curl('GET', '/v1/tickets/7/messages'),
    },
    async (ctx) => {
      const l = unwrap(await app.messages.list(actorOf(ctx), ticketId(ctx), decodePage(ctx.query)));
      ctx.state.reply = ok(l.items.map(represent), { page: pageInfo(l) });
    },
  );

  api.post(
    '/v1/tickets/:ticketId/messages',
    {
      id: 'createMessage',
      tag: 'Messages',
      summary: 'Add a message',
      description: `The author is the caller. Updates the ticket's updated_at.${roles('customer: own tickets, no internal notes; agent, admin: any.')}`,
      access: 'token',
      needs: n.messages.create,
      keyed: { access: r.createMessage },
      params: ['TicketId'],
      body: { schema: 'MessageCreate', example: ex.messageCreate },
      success: writable('created', 'Message', ex.message()),
      errors: [...ticketErrors, ...writeErrors],
      curl: curl('POST', '/v1/tickets/7/messages', ex.messageCreate),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      const id = ticketId(ctx);
      const body = await readBody(ctx, [mediaTypes.json]);
      const m = unwrap(await app.messages.create(actor, id, decodeBody(MessageCreateBody, body)), messageNames);
      ctx.state.reply = created(represent(m), urls.message(m.ticketId, m.number), m.updatedAt);
    },
  );

  api.get(
    '/v1/tickets/:ticketId/messages/:messageId',
    {
      id: 'getMessage',
      tag: 'Messages',
      summary: 'Read a message',
      description: `One message. To a customer an internal note does not exist (404).${roles('as the list.')}`,
      access: 'token',
      needs: n.messages.get,
      params: ['TicketId', 'MessageId'],
      success: {
        status: 200,
        shape: 'single',
        description: 'The message.',
        schema: ref('Message'),
        example: ex.message(),
      },
      errors: ticketErrors,
      curl: curl('GET', '/v1/tickets/7/messages/1'),
    },
    async (ctx) => {
      written(ctx, unwrap(await app.messages.get(actorOf(ctx), ticketId(ctx), number(ctx))));
    },
  );

  api.put(
    '/v1/tickets/:ticketId/messages/:messageId',
    {
      id: 'replaceMessage',
      tag: 'Messages',
      summary: 'Replace a message',
      description: `body required; an omitted internal returns to false.${roles('customer: own messages; agent, admin: any.')}`,
      access: 'token',
      needs: n.messages.replace,
      params: ['TicketId', 'MessageId'],
      body: { schema: 'MessageWrite', example: ex.messageCreate },
      success: writable('written', 'Message', ex.message()),
      errors: [...ticketErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PUT', '/v1/tickets/7/messages/1', ex.messageCreate),
    },
    writeRoute('put', {
      target,
      codec: MessageReplaceBody,
      run: (actor, [t, m], body, options) => app.messages.replace(actor, t, m, body, options),
      represent,
      lastModified,
    }),
  );

  api.patch(
    '/v1/tickets/:ticketId/messages/:messageId',
    {
      id: 'patchMessage',
      tag: 'Messages',
      summary: 'Change fields of a message',
      description: `JSON merge patch (RFC 7396).${roles('customer: own messages; agent, admin: any.')}`,
      access: 'token',
      needs: n.messages.patch,
      params: ['TicketId', 'MessageId'],
      body: { schema: 'MessagePatch', example: ex.messagePatch, mergePatch: true },
      success: writable('written', 'Message', ex.message({ internal: true })),
      errors: [...ticketErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PATCH', '/v1/tickets/7/messages/1', ex.messagePatch),
    },
    writeRoute('patch', {
      target,
      codec: MessagePatchBody,
      run: (actor, [t, m], body, options) => app.messages.patch(actor, t, m, body, options),
      represent,
      lastModified,
    }),
  );

  api.delete(
    '/v1/tickets/:ticketId/messages/:messageId',
    {
      id: 'deleteMessage',
      tag: 'Messages',
      summary: 'Delete a message',
      description: `Afterwards the message answers 410. Answers the message as it was.${roles('customer: own messages; agent, admin: any.')}`,
      access: 'token',
      needs: n.messages.delete,
      params: ['TicketId', 'MessageId'],
      success: writable('written', 'Message', ex.message()),
      errors: [...ticketErrors, 'PreconditionFailed'],
      curl: curl('DELETE', '/v1/tickets/7/messages/1'),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      written(
        ctx,
        unwrap(
          await app.messages.delete(actor, ticketId(ctx), number(ctx), ifMatchOption(ctx.get('If-Match'), represent)),
        ),
      );
    },
  );
};
