import { operationNeeds as n, repeatAccess as r } from '@support/application';
import { examples } from '../openapi/examples.js';
import { curlOn, idErrors, listOf, roles, writable, writeErrors } from '../openapi/operation.js';
import { ref } from '../openapi/json.js';
import type { Group, GroupId } from '@support/domain';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { GroupCreateBody, GroupPatchBody, GroupReplaceBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { created, ok } from '../reply.js';
import { groupRepresentation } from '../representations/group.js';
import { userRepresentation } from '../representations/user.js';
import type { RouteContext, Services } from '../state.js';
import type { DeclaringRouter } from './declare.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';
import { writeRoute } from './write-route.js';

export const groupRoutes = (api: DeclaringRouter, { app, urls }: Services): void => {
  const origin = urls.origin;
  const curl = curlOn(origin);
  const ex = examples(urls.origin);
  const represent = (g: Group): Record<string, unknown> => groupRepresentation(urls, g);
  const groupId = (ctx: RouteContext): GroupId => idParam(ctx, 'groupId', 'group') as GroupId;
  const written = (ctx: RouteContext, g: Group): void => {
    ctx.state.reply = ok(represent(g), { lastModified: g.updatedAt });
  };

  api.get(
    '/v1/groups',
    {
      id: 'listGroups',
      tag: 'Groups',
      summary: 'List groups',
      description: `A bare JSON array, paged.${roles('agent, admin.')}`,
      access: 'token',
      needs: n.groups.list,
      params: ['Page', 'PerPage'],
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of groups.',
        schema: listOf('Group'),
        example: [ex.group()],
      },
      errors: [],
      curl: curl('GET', '/v1/groups'),
    },
    async (ctx) => {
      const l = unwrap(await app.groups.list(actorOf(ctx), decodePage(ctx.query)));
      ctx.state.reply = ok(l.items.map(represent), { page: pageInfo(l) });
    },
  );

  api.post(
    '/v1/groups',
    {
      id: 'createGroup',
      tag: 'Groups',
      summary: 'Create a group',
      description: `Group names are unique.${roles('admin.')}`,
      access: 'token',
      needs: n.groups.create,
      keyed: { access: r.createGroup },
      body: { schema: 'GroupWrite', example: ex.groupCreate },
      success: writable('created', 'Group', ex.group()),
      errors: writeErrors,
      curl: curl('POST', '/v1/groups', ex.groupCreate),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      const body = await readBody(ctx, [mediaTypes.json]);
      const g = unwrap(await app.groups.create(actor, decodeBody(GroupCreateBody, body)));
      ctx.state.reply = created(represent(g), urls.group(g.id), g.updatedAt);
    },
  );

  api.get(
    '/v1/groups/:groupId',
    {
      id: 'getGroup',
      tag: 'Groups',
      summary: 'Read a group',
      description: `One group.${roles('agent, admin.')}`,
      access: 'token',
      needs: n.groups.get,
      params: ['GroupId'],
      success: { status: 200, shape: 'single', description: 'The group.', schema: ref('Group'), example: ex.group() },
      errors: idErrors,
      curl: curl('GET', '/v1/groups/2'),
    },
    async (ctx) => {
      written(ctx, unwrap(await app.groups.get(actorOf(ctx), groupId(ctx))));
    },
  );

  api.get(
    '/v1/groups/:groupId/users',
    {
      id: 'listGroupUsers',
      tag: 'Groups',
      summary: "List a group's members",
      description: `The users of the group, a bare array, paged.${roles('agent, admin.')}`,
      access: 'token',
      needs: n.groups.members,
      params: ['GroupId', 'Page', 'PerPage'],
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of users.',
        schema: listOf('User'),
        example: [ex.user({ role: 'agent', groups: [{ id: 2, url: `${origin}/v1/groups/2` }] })],
      },
      errors: idErrors,
      curl: curl('GET', '/v1/groups/2/users'),
    },
    async (ctx) => {
      const l = unwrap(await app.groups.members(actorOf(ctx), groupId(ctx), decodePage(ctx.query)));
      ctx.state.reply = ok(
        l.items.map((u) => userRepresentation(urls, u)),
        { page: pageInfo(l) },
      );
    },
  );

  api.put(
    '/v1/groups/:groupId',
    {
      id: 'replaceGroup',
      tag: 'Groups',
      summary: 'Replace a group',
      description: `name required; an omitted description returns to "".${roles('admin.')}`,
      access: 'token',
      needs: n.groups.replace,
      params: ['GroupId'],
      body: { schema: 'GroupWrite', example: ex.groupCreate },
      success: writable('written', 'Group', ex.group()),
      errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PUT', '/v1/groups/2', ex.groupCreate),
    },
    writeRoute('put', {
      target: groupId,
      codec: GroupReplaceBody,
      run: (actor, id, body, options) => app.groups.replace(actor, id, body, options),
      represent,
      lastModified: (g: Group) => g.updatedAt,
    }),
  );

  api.patch(
    '/v1/groups/:groupId',
    {
      id: 'patchGroup',
      tag: 'Groups',
      summary: 'Change fields of a group',
      description: `JSON merge patch (RFC 7396).${roles('admin.')}`,
      access: 'token',
      needs: n.groups.patch,
      params: ['GroupId'],
      body: { schema: 'GroupPatch', example: ex.groupPatch, mergePatch: true },
      success: writable('written', 'Group', ex.group({ description: '' })),
      errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PATCH', '/v1/groups/2', ex.groupPatch),
    },
    writeRoute('patch', {
      target: groupId,
      codec: GroupPatchBody,
      run: (actor, id, body, options) => app.groups.patch(actor, id, body, options),
      represent,
      lastModified: (g: Group) => g.updatedAt,
    }),
  );

  api.delete(
    '/v1/groups/:groupId',
    {
      id: 'deleteGroup',
      tag: 'Groups',
      summary: 'Delete a group',
      description: `Answers the deleted group.${roles('admin.')}`,
      access: 'token',
      needs: n.groups.delete,
      params: ['GroupId'],
      success: writable('written', 'Group', ex.group()),
      errors: [...idErrors, 'PreconditionFailed'],
      curl: curl('DELETE', '/v1/groups/2'),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      written(ctx, unwrap(await app.groups.delete(actor, groupId(ctx), ifMatchOption(ctx.get('If-Match'), represent))));
    },
  );
};
