import type { Webhook, WebhookId } from '@support/domain';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { WebhookCreateBody, WebhookPatchBody, WebhookReplayBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { created, ok } from '../reply.js';
import { deliveryRepresentation, webhookRepresentation, webhookWithSecret } from '../representations/webhook.js';
import type { AppRouter, RouteContext, Services } from '../state.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';

// Webhooks (contract §7.4), admins only. The signing secret appears in exactly two answers,
// the creation and rotate-secret; every other answer (and the ETag that If-Match compares)
// is the webhook without it.

export const webhookRoutes = (router: AppRouter, { app, urls }: Services): void => {
  const represent = (w: Webhook): Record<string, unknown> => webhookRepresentation(w);
  const webhookId = (ctx: RouteContext): WebhookId => idParam(ctx, 'webhookId', 'webhook') as WebhookId;
  const written = (ctx: RouteContext, w: Webhook): void => {
    ctx.state.reply = ok(represent(w), { lastModified: w.updatedAt });
  };

  router.get('/v1/webhooks', async (ctx) => {
    const l = unwrap(await app.webhooks.list(actorOf(ctx), decodePage(ctx.query)));
    ctx.state.reply = ok(l.items.map(represent), { page: pageInfo(l) });
  });

  router.post('/v1/webhooks', async (ctx) => {
    const actor = actorOf(ctx);
    const body = await readBody(ctx, [mediaTypes.json]);
    const w = unwrap(await app.webhooks.create(actor, decodeBody(WebhookCreateBody, body)));
    ctx.state.reply = created(webhookWithSecret(w), urls.webhook(w.id), w.updatedAt);
  });

  router.get('/v1/webhooks/:webhookId', async (ctx) => {
    written(ctx, unwrap(await app.webhooks.get(actorOf(ctx), webhookId(ctx))));
  });

  router.patch('/v1/webhooks/:webhookId', async (ctx) => {
    const actor = actorOf(ctx);
    const id = webhookId(ctx);
    const body = await readBody(ctx, [mediaTypes.json, mediaTypes.mergePatch]);
    written(
      ctx,
      unwrap(
        await app.webhooks.patch(
          actor,
          id,
          decodeBody(WebhookPatchBody, body),
          ifMatchOption(ctx.get('If-Match'), represent),
        ),
      ),
    );
  });

  router.delete('/v1/webhooks/:webhookId', async (ctx) => {
    const actor = actorOf(ctx);
    written(
      ctx,
      unwrap(await app.webhooks.delete(actor, webhookId(ctx), ifMatchOption(ctx.get('If-Match'), represent))),
    );
  });

  // Takes no body: any sent is ignored.
  router.post('/v1/webhooks/:webhookId/rotate-secret', async (ctx) => {
    const w = unwrap(await app.webhooks.rotateSecret(actorOf(ctx), webhookId(ctx)));
    ctx.state.reply = ok(webhookWithSecret(w), { lastModified: w.updatedAt });
  });

  router.post('/v1/webhooks/:webhookId/replay', async (ctx) => {
    const actor = actorOf(ctx);
    const id = webhookId(ctx);
    const body = await readBody(ctx, [mediaTypes.json]);
    written(ctx, unwrap(await app.webhooks.replay(actor, id, decodeBody(WebhookReplayBody, body))));
  });

  router.get('/v1/webhooks/:webhookId/deliveries', async (ctx) => {
    const l = unwrap(await app.webhooks.deliveries(actorOf(ctx), webhookId(ctx), decodePage(ctx.query)));
    ctx.state.reply = ok(l.items.map(deliveryRepresentation), { page: pageInfo(l) });
  });
};
