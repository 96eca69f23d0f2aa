import type { User, UserId } from '@support/domain';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { UserCreateBody, UserPatchBody, UserReplaceBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { created, ok } from '../reply.js';
import { userRepresentation } from '../representations/user.js';
import type { AppRouter, RouteContext, Services } from '../state.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';
import { userNames } from '../wire-names.js';

// /v1/users/me is the caller; every operation on /v1/users/{id} works on it too.

export const userRoutes = (router: AppRouter, { app, urls }: Services): void => {
  const represent = (u: User): Record<string, unknown> => userRepresentation(urls, u);
  const written = (ctx: RouteContext, u: User): void => {
    ctx.state.reply = ok(represent(u), { lastModified: u.updatedAt });
  };

  router.get('/v1/users', async (ctx) => {
    const l = unwrap(await app.users.list(actorOf(ctx), decodePage(ctx.query)));
    ctx.state.reply = ok(l.items.map(represent), { page: pageInfo(l) });
  });

  router.post('/v1/users', async (ctx) => {
    const actor = actorOf(ctx);
    const body = await readBody(ctx, [mediaTypes.json]);
    const u = unwrap(await app.users.create(actor, decodeBody(UserCreateBody, body)), userNames);
    ctx.state.reply = created(represent(u), urls.user(u.id), u.updatedAt);
  });

  for (const path of ['/v1/users/me', '/v1/users/:userId']) {
    const target = (ctx: RouteContext): UserId | 'me' =>
      path.endsWith('/me') ? 'me' : (idParam(ctx, 'userId', 'user') as UserId);

    const read = async (ctx: RouteContext): Promise<void> => {
      const id = target(ctx);
      // GET /v1/users/me is its own use case: it needs no scope (contract §8.1).
      written(ctx, unwrap(await (id === 'me' ? app.users.me(actorOf(ctx)) : app.users.get(actorOf(ctx), id))));
    };
    router.get(path, read);

    router.put(path, async (ctx) => {
      const actor = actorOf(ctx);
      const id = target(ctx);
      const body = await readBody(ctx, [mediaTypes.json]);
      written(
        ctx,
        unwrap(
          await app.users.replace(
            actor,
            id,
            decodeBody(UserReplaceBody, body),
            ifMatchOption(ctx.get('If-Match'), represent),
          ),
          userNames,
        ),
      );
    });

    router.patch(path, async (ctx) => {
      const actor = actorOf(ctx);
      const id = target(ctx);
      const body = await readBody(ctx, [mediaTypes.json, mediaTypes.mergePatch]);
      written(
        ctx,
        unwrap(
          await app.users.patch(
            actor,
            id,
            decodeBody(UserPatchBody, body),
            ifMatchOption(ctx.get('If-Match'), represent),
          ),
          userNames,
        ),
      );
    });

    router.delete(path, async (ctx) => {
      const actor = actorOf(ctx);
      const id = target(ctx);
      written(
        ctx,
        unwrap(
          await app.users.delete(
            actor,
            id === 'me' ? actor.user.id : id,
            ifMatchOption(ctx.get('If-Match'), represent),
          ),
        ),
      );
    });
  }
};
