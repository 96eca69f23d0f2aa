import { operationNeeds as n, repeatAccess as r } from '@support/application';
import { examples } from '../openapi/examples.js';
import { ref } from '../openapi/json.js';
import { curlOn, idErrors, listOf, roles, writable, writeErrors, type Declaration } from '../openapi/operation.js';
import type { User, UserId } from '@support/domain';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { UserCreateBody, UserPatchBody, UserReplaceBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { created, ok } from '../reply.js';
import { userRepresentation } from '../representations/user.js';
import type { RouteContext, Services } from '../state.js';
import { documentedPath } from './catalog.js';
import type { DeclaringRouter } from './declare.js';
import { writeRoute } from './write-route.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';
import { userNames } from '../resources/users.js';

// /v1/users/me is the caller; every operation on /v1/users/{id} works on it too.

export const userRoutes = (api: DeclaringRouter, { app, urls }: Services): void => {
  const curl = curlOn(urls.origin);
  const ex = examples(urls.origin);
  // /v1/users/me and /v1/users/{user_id} offer the same four methods; only whom they act on differs.
  const userOps = (path: string, me: boolean): Declaration[] => {
    const p = me ? [] : ['UserId'];
    const target = me ? 'the caller' : 'a user';
    const concrete = path.replace('{user_id}', '12');
    return [
      {
        id: me ? 'getMe' : 'getUser',
        tag: 'Users',
        summary: `Read ${target}`,
        description: `${me ? 'The user the token belongs to.' : 'One user.'}${roles(me ? 'any.' : 'customer: self only (anyone else is 404); agent, admin: any.')}`,
        access: 'token',
        needs: me ? n.users.me : n.users.get,
        params: p,
        success: { status: 200, shape: 'single', description: 'The user.', schema: ref('User'), example: ex.user() },
        errors: me ? [] : idErrors,
        curl: curl('GET', concrete),
      },
      {
        id: me ? 'replaceMe' : 'replaceUser',
        tag: 'Users',
        summary: `Replace ${target}`,
        description: `Every writable field; password may be omitted (it is kept).${roles('customer, agent: self, name and password only (e-mail and role as they are); admin: any.')}`,
        access: 'token',
        needs: n.users.replace,
        params: p,
        body: { schema: 'UserReplace', example: ex.userReplace },
        success: writable('written', 'User', ex.user({ name: 'Ada King' })),
        errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
        curl: curl('PUT', concrete, ex.userReplace),
      },
      {
        id: me ? 'patchMe' : 'patchUser',
        tag: 'Users',
        summary: `Change fields of ${target}`,
        description: `JSON merge patch (RFC 7396): only the fields given change.${roles('customer, agent: own name and password; admin: any.')}`,
        access: 'token',
        needs: n.users.patch,
        params: p,
        body: { schema: 'UserPatch', example: ex.userPatch, mergePatch: true },
        success: writable('written', 'User', ex.user({ name: 'Ada King' })),
        errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
        curl: curl('PATCH', concrete, ex.userPatch),
      },
      {
        id: me ? 'deleteMe' : 'deleteUser',
        tag: 'Users',
        summary: `Delete ${target}`,
        description: `Answers the deleted user. An admin cannot delete their own account (409).${roles('admin.')}`,
        access: 'token',
        needs: n.users.delete,
        params: p,
        success: writable('written', 'User', ex.user()),
        errors: [...idErrors, 'Conflict', 'PreconditionFailed'],
        curl: curl('DELETE', concrete),
      },
    ];
  };
  const represent = (u: User): Record<string, unknown> => userRepresentation(urls, u);
  const written = (ctx: RouteContext, u: User): void => {
    ctx.state.reply = ok(represent(u), { lastModified: u.updatedAt });
  };
  const lastModified = (u: User): number => u.updatedAt;

  api.get(
    '/v1/users',
    {
      id: 'listUsers',
      tag: 'Users',
      summary: 'List users',
      description: `A bare JSON array, paged.${roles('agent, admin.')}`,
      access: 'token',
      needs: n.users.list,
      params: ['Page', 'PerPage'],
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of users.',
        schema: listOf('User'),
        example: [ex.user()],
      },
      errors: [],
      curl: curl('GET', '/v1/users?per_page=100'),
    },
    async (ctx) => {
      const l = unwrap(await app.users.list(actorOf(ctx), decodePage(ctx.query)));
      ctx.state.reply = ok(l.items.map(represent), { page: pageInfo(l) });
    },
  );

  api.post(
    '/v1/users',
    {
      id: 'createUser',
      tag: 'Users',
      summary: 'Create a user',
      description: `e-mail addresses are unique (case-insensitively).${roles('admin.')}`,
      access: 'token',
      needs: n.users.create,
      keyed: { access: r.createUser },
      body: { schema: 'UserCreate', example: ex.userCreate },
      success: writable('created', 'User', ex.user()),
      errors: writeErrors,
      curl: curl('POST', '/v1/users', ex.userCreate),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      const body = await readBody(ctx, [mediaTypes.json]);
      const u = unwrap(await app.users.create(actor, decodeBody(UserCreateBody, body)), userNames);
      ctx.state.reply = created(represent(u), urls.user(u.id), u.updatedAt);
    },
  );

  for (const path of ['/v1/users/me', '/v1/users/:userId']) {
    const target = (ctx: RouteContext): UserId | 'me' =>
      path.endsWith('/me') ? 'me' : (idParam(ctx, 'userId', 'user') as UserId);

    const read = async (ctx: RouteContext): Promise<void> => {
      const id = target(ctx);
      // GET /v1/users/me is its own use case: it needs no scope (contract §8.1).
      written(ctx, unwrap(await (id === 'me' ? app.users.me(actorOf(ctx)) : app.users.get(actorOf(ctx), id))));
    };
    const [get, replace, patch, remove] = userOps(documentedPath(path), path.endsWith('/me')) as [
      Declaration,
      Declaration,
      Declaration,
      Declaration,
    ];
    api.get(path, get, read);
    api.put(
      path,
      replace,
      writeRoute('put', {
        target,
        codec: UserReplaceBody,
        run: (actor, id, body, options) => app.users.replace(actor, id, body, options),
        represent,
        lastModified,
        names: userNames,
      }),
    );
    api.patch(
      path,
      patch,
      writeRoute('patch', {
        target,
        codec: UserPatchBody,
        run: (actor, id, body, options) => app.users.patch(actor, id, body, options),
        represent,
        lastModified,
        names: userNames,
      }),
    );

    api.delete(path, remove, async (ctx) => {
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
