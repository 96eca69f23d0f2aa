import { operationNeeds as n, repeatAccess as r } from '@support/application';
import { examples } from '../openapi/examples.js';
import { curlOn, idErrors, listOf, roles, writable, writeErrors } from '../openapi/operation.js';
import { ref } from '../openapi/json.js';
import type { Webhook, WebhookId } from '@support/domain';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { WebhookCreateBody, WebhookPatchBody, WebhookReplayBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { createdWithSecret, ok } from '../reply.js';
import { deliveryRepresentation, webhookRepresentation, webhookWithSecret } from '../representations/webhook.js';
import type { RouteContext, Services } from '../state.js';
import type { DeclaringRouter } from './declare.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';
import { writeRoute } from './write-route.js';

// Webhooks (contract §7.4), admins only. The signing secret appears in exactly two answers,
// the creation and rotate-secret, both no-store without an ETag (as a new personal token's);
// every other answer (and the ETag that If-Match compares) is the webhook without it.

export const webhookRoutes = (api: DeclaringRouter, { app, urls }: Services): void => {
  const curl = curlOn(urls.origin);
  const ex = examples(urls.origin);
  const admin = roles(
    'admin. A token needs webhooks:manage, and also events:read to create a webhook, change its url or events, or replay it (a webhook reads the whole feed): else 403 insufficient_scope.',
  );
  const represent = (w: Webhook): Record<string, unknown> => webhookRepresentation(w);
  const webhookId = (ctx: RouteContext): WebhookId => idParam(ctx, 'webhookId', 'webhook') as WebhookId;
  const written = (ctx: RouteContext, w: Webhook): void => {
    ctx.state.reply = ok(represent(w), { lastModified: w.updatedAt });
  };

  api.get(
    '/v1/webhooks',
    {
      id: 'listWebhooks',
      tag: 'Webhooks',
      summary: 'List webhooks',
      description: `A bare JSON array, paged, by id. Secrets are never shown.${admin}`,
      access: 'token',
      needs: n.webhooks.list,
      params: ['Page', 'PerPage'],
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of webhooks.',
        schema: listOf('Webhook'),
        example: [ex.webhook()],
      },
      errors: [],
      curl: curl('GET', '/v1/webhooks'),
    },
    async (ctx) => {
      const l = unwrap(await app.webhooks.list(actorOf(ctx), decodePage(ctx.query)));
      ctx.state.reply = ok(l.items.map(represent), { page: pageInfo(l) });
    },
  );

  api.post(
    '/v1/webhooks',
    {
      id: 'createWebhook',
      tag: 'Webhooks',
      summary: 'Create a webhook',
      description:
        'Subscribes a receiver to the event types given (or ["*"]). It receives the changes made from now on (last_delivered_seq starts at the newest seq; replay reaches back). ' +
        `The answer carries the signing secret: the only time it is shown. A receiver URL the SSRF guard refuses is 422 on url.${admin}`,
      access: 'token',
      needs: n.webhooks.create,
      keyed: { access: r.createWebhook, secret: 'secret' },
      body: { schema: 'WebhookCreate', example: ex.webhookCreate },
      success: {
        status: 201,
        shape: 'secret',
        description:
          'Created: the webhook with its secret (shown this once: Cache-Control: no-store, no ETag), its URL in Location.',
        schema: ref('WebhookWithSecret'),
        example: ex.webhookWithSecret(),
      },
      errors: writeErrors,
      curl: curl('POST', '/v1/webhooks', ex.webhookCreate),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      const body = await readBody(ctx, [mediaTypes.json]);
      const w = unwrap(await app.webhooks.create(actor, decodeBody(WebhookCreateBody, body)));
      // no-store: the one answer that shows the secret is kept by no cache (nor, for a repeat, with it).
      ctx.state.reply = createdWithSecret(webhookWithSecret(w), urls.webhook(w.id));
    },
  );

  api.get(
    '/v1/webhooks/:webhookId',
    {
      id: 'getWebhook',
      tag: 'Webhooks',
      summary: 'Read a webhook',
      description: `One webhook, without its secret. active is false when the server switched it off after a delivery failed through the whole retry schedule.${admin}`,
      access: 'token',
      needs: n.webhooks.get,
      params: ['WebhookId'],
      success: {
        status: 200,
        shape: 'single',
        description: 'The webhook.',
        schema: ref('Webhook'),
        example: ex.webhook(),
      },
      errors: idErrors,
      curl: curl('GET', '/v1/webhooks/3'),
    },
    async (ctx) => {
      written(ctx, unwrap(await app.webhooks.get(actorOf(ctx), webhookId(ctx))));
    },
  );

  api.patch(
    '/v1/webhooks/:webhookId',
    {
      id: 'patchWebhook',
      tag: 'Webhooks',
      summary: 'Change fields of a webhook',
      description: `JSON merge patch (RFC 7396). active: true resumes a switched-off webhook from the event that failed, with a fresh retry schedule.${admin}`,
      access: 'token',
      needs: n.webhooks.patch,
      params: ['WebhookId'],
      body: { schema: 'WebhookPatch', example: ex.webhookPatch, mergePatch: true },
      success: writable('written', 'Webhook', ex.webhook({ events: ['*'], description: '' })),
      errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PATCH', '/v1/webhooks/3', ex.webhookPatch),
    },
    writeRoute('patch', {
      target: webhookId,
      codec: WebhookPatchBody,
      run: (actor, id, body, options) => app.webhooks.patch(actor, id, body, options),
      represent,
      lastModified: (w: Webhook) => w.updatedAt,
    }),
  );

  api.delete(
    '/v1/webhooks/:webhookId',
    {
      id: 'deleteWebhook',
      tag: 'Webhooks',
      summary: 'Delete a webhook',
      description: `Stops its deliveries and forgets its delivery log. Answers the deleted webhook.${admin}`,
      access: 'token',
      needs: n.webhooks.delete,
      params: ['WebhookId'],
      success: writable('written', 'Webhook', ex.webhook()),
      errors: [...idErrors, 'PreconditionFailed'],
      curl: curl('DELETE', '/v1/webhooks/3'),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      written(
        ctx,
        unwrap(await app.webhooks.delete(actor, webhookId(ctx), ifMatchOption(ctx.get('If-Match'), represent))),
      );
    },
  );

  // Takes no body: any sent is ignored.
  api.post(
    '/v1/webhooks/:webhookId/rotate-secret',
    {
      id: 'rotateWebhookSecret',
      tag: 'Webhooks',
      summary: "Replace a webhook's signing secret",
      description: `Makes a new secret and answers it, this once. The old one keeps signing for 24 hours beside it: deliveries in that window carry both signatures (webhook-signature: v1,<new> v1,<old>), so a receiver can switch at its own pace. Takes no body. A repeat with the same Idempotency-Key answers secret: null.${admin}`,
      access: 'token',
      needs: n.webhooks.rotateSecret,
      keyed: { access: r.rotateWebhookSecret, secret: 'secret' },
      params: ['WebhookId'],
      success: {
        status: 200,
        shape: 'token',
        description: 'The webhook with its new secret (shown this once: Cache-Control: no-store, no ETag).',
        schema: ref('WebhookWithSecret'),
        example: ex.webhookWithSecret(),
      },
      errors: idErrors,
      curl: curl('POST', '/v1/webhooks/3/rotate-secret'),
    },
    async (ctx) => {
      const w = unwrap(await app.webhooks.rotateSecret(actorOf(ctx), webhookId(ctx)));
      ctx.state.reply = ok(webhookWithSecret(w), { noStore: true });
    },
  );

  api.post(
    '/v1/webhooks/:webhookId/replay',
    {
      id: 'replayWebhook',
      tag: 'Webhooks',
      summary: 'Re-send events to a webhook',
      description:
        'Moves the delivery cursor to after (last_delivered_seq) and switches the webhook on: every subscribed event with a seq above it is delivered again, in order, as far back as the feed keeps. ' +
        `The events keep their webhook-id, so receivers can tell a repeat. after above the newest seq: 422.${admin}`,
      access: 'token',
      needs: n.webhooks.replay,
      keyed: { access: r.replayWebhook },
      params: ['WebhookId'],
      body: { schema: 'WebhookReplay', example: ex.webhookReplay },
      success: writable('written', 'Webhook', ex.webhook({ last_delivered_seq: 1000 })),
      errors: [...idErrors, ...writeErrors],
      curl: curl('POST', '/v1/webhooks/3/replay', ex.webhookReplay),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      const id = webhookId(ctx);
      const body = await readBody(ctx, [mediaTypes.json]);
      written(ctx, unwrap(await app.webhooks.replay(actor, id, decodeBody(WebhookReplayBody, body))));
    },
  );

  api.get(
    '/v1/webhooks/:webhookId/deliveries',
    {
      id: 'listWebhookDeliveries',
      tag: 'Webhooks',
      summary: "List a webhook's delivery attempts",
      description: `The most recent attempts, newest first, paged: the event, its webhook-id, the status, duration, error and when it will be tried again.${admin}`,
      access: 'token',
      needs: n.webhooks.deliveries,
      params: ['WebhookId', 'Page', 'PerPage'],
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of attempts.',
        schema: listOf('Delivery'),
        example: [ex.delivery],
      },
      errors: idErrors,
      curl: curl('GET', '/v1/webhooks/3/deliveries'),
    },
    async (ctx) => {
      const l = unwrap(await app.webhooks.deliveries(actorOf(ctx), webhookId(ctx), decodePage(ctx.query)));
      ctx.state.reply = ok(l.items.map(deliveryRepresentation), { page: pageInfo(l) });
    },
  );
};
