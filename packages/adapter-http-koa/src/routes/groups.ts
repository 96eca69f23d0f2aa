import type { Group, GroupId } from '@support/domain';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { GroupCreateBody, GroupPatchBody, GroupReplaceBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { created, ok } from '../reply.js';
import { groupRepresentation } from '../representations/group.js';
import { userRepresentation } from '../representations/user.js';
import type { AppRouter, RouteContext, Services } from '../state.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';

export const groupRoutes = (router: AppRouter, { app, urls }: Services): void => {
  const represent = (g: Group): Record<string, unknown> => groupRepresentation(urls, g);
  const groupId = (ctx: RouteContext): GroupId => idParam(ctx, 'groupId', 'group') as GroupId;
  const written = (ctx: RouteContext, g: Group): void => {
    ctx.state.reply = ok(represent(g), { lastModified: g.updatedAt });
  };

  router.get('/v1/groups', async (ctx) => {
    const l = unwrap(await app.groups.list(actorOf(ctx), decodePage(ctx.query)));
    ctx.state.reply = ok(l.items.map(represent), { page: pageInfo(l) });
  });

  router.post('/v1/groups', async (ctx) => {
    const actor = actorOf(ctx);
    const body = await readBody(ctx, [mediaTypes.json]);
    const g = unwrap(await app.groups.create(actor, decodeBody(GroupCreateBody, body)));
    ctx.state.reply = created(represent(g), urls.group(g.id), g.updatedAt);
  });

  router.get('/v1/groups/:groupId', async (ctx) => {
    written(ctx, unwrap(await app.groups.get(actorOf(ctx), groupId(ctx))));
  });

  router.get('/v1/groups/:groupId/users', async (ctx) => {
    const l = unwrap(await app.groups.members(actorOf(ctx), groupId(ctx), decodePage(ctx.query)));
    ctx.state.reply = ok(
      l.items.map((u) => userRepresentation(urls, u)),
      { page: pageInfo(l) },
    );
  });

  router.put('/v1/groups/:groupId', async (ctx) => {
    const actor = actorOf(ctx);
    const id = groupId(ctx);
    const body = await readBody(ctx, [mediaTypes.json]);
    written(
      ctx,
      unwrap(
        await app.groups.replace(
          actor,
          id,
          decodeBody(GroupReplaceBody, body),
          ifMatchOption(ctx.get('If-Match'), represent),
        ),
      ),
    );
  });

  router.patch('/v1/groups/:groupId', async (ctx) => {
    const actor = actorOf(ctx);
    const id = groupId(ctx);
    const body = await readBody(ctx, [mediaTypes.json, mediaTypes.mergePatch]);
    written(
      ctx,
      unwrap(
        await app.groups.patch(
          actor,
          id,
          decodeBody(GroupPatchBody, body),
          ifMatchOption(ctx.get('If-Match'), represent),
        ),
      ),
    );
  });

  router.delete('/v1/groups/:groupId', async (ctx) => {
    const actor = actorOf(ctx);
    written(ctx, unwrap(await app.groups.delete(actor, groupId(ctx), ifMatchOption(ctx.get('If-Match'), represent))));
  });
};
