import type { UserId } from '@support/domain';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { PersonalTokenCreateBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { ok } from '../reply.js';
import { personalTokenRepresentation } from '../representations/personal-token.js';
import type { AppRouter, RouteContext, Services } from '../state.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';
import { personalTokenNames } from '../wire-names.js';

// Personal access tokens (contract §8.1): the caller's under /v1/users/me/tokens (made there
// only), anyone's for admins under /v1/users/{id}/tokens. Only login tokens are accepted
// (the application's scopes.ts: 'login'). Registered before the users' routes, so that
// /v1/users/me/tokens is not taken for a user id.

export const tokenRoutes = (router: AppRouter, { app, urls }: Services): void => {
  const tokenId = (ctx: RouteContext): number => idParam(ctx, 'tokenId', 'token');

  router.post('/v1/users/me/tokens', async (ctx) => {
    const actor = actorOf(ctx);
    const body = await readBody(ctx, [mediaTypes.json]);
    const made = unwrap(await app.tokens.create(actor, decodeBody(PersonalTokenCreateBody, body)), personalTokenNames);
    // no-store: the one answer that shows the token is kept by no cache (nor for an Idempotency-Key replay).
    ctx.state.reply = {
      status: 201,
      body: personalTokenRepresentation(urls, made.record, made.token),
      headers: { Location: urls.personalToken(made.record.userId, made.record.id) },
      noStore: true,
    };
  });

  for (const path of ['/v1/users/me/tokens', '/v1/users/:userId/tokens']) {
    const owner = (ctx: RouteContext): UserId | 'me' =>
      path.startsWith('/v1/users/me/') ? 'me' : (idParam(ctx, 'userId', 'user') as UserId);

    router.get(path, async (ctx) => {
      const l = unwrap(await app.tokens.list(actorOf(ctx), owner(ctx), decodePage(ctx.query)));
      ctx.state.reply = ok(
        l.items.map((r) => personalTokenRepresentation(urls, r)),
        { page: pageInfo(l) },
      );
    });

    router.get(`${path}/:tokenId`, async (ctx) => {
      const r = unwrap(await app.tokens.get(actorOf(ctx), owner(ctx), tokenId(ctx)));
      ctx.state.reply = ok(personalTokenRepresentation(urls, r), { lastModified: r.lastUsedAt ?? r.createdAt });
    });

    router.delete(`${path}/:tokenId`, async (ctx) => {
      const r = unwrap(await app.tokens.revoke(actorOf(ctx), owner(ctx), tokenId(ctx)));
      ctx.state.reply = ok(personalTokenRepresentation(urls, r), { lastModified: r.lastUsedAt ?? r.createdAt });
    });
  }
};
