import { operationNeeds as n, repeatAccess as r } from '@support/application';
import { examples } from '../openapi/examples.js';
import { ref } from '../openapi/json.js';
import { curlOn, idErrors, listOf, roles, writeErrors, type Declaration } from '../openapi/operation.js';
import type { UserId } from '@support/domain';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { PersonalTokenCreateBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { createdWithSecret, ok } from '../reply.js';
import { personalTokenRepresentation } from '../representations/personal-token.js';
import type { RouteContext, Services } from '../state.js';
import type { DeclaringRouter } from './declare.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';
import { personalTokenNames } from '../resources/personal-tokens.js';

// Personal access tokens (contract §8.1): the caller's under /v1/users/me/tokens (made there
// only), anyone's for admins under /v1/users/{id}/tokens. Only login tokens are accepted
// (the application's scopes.ts: 'login'). Registered before the users' routes, so that
// /v1/users/me/tokens is not taken for a user id.

const tokenPathParam = ['TokenId'];

export const tokenRoutes = (api: DeclaringRouter, { app, urls }: Services): void => {
  const curl = curlOn(urls.origin);
  const ex = examples(urls.origin);
  const reads = (me: boolean): Declaration[] => {
    const base = me ? '/v1/users/me/tokens' : '/v1/users/{user_id}/tokens';
    const concrete = me ? base : base.replace('{user_id}', '12');
    const who = me ? 'your' : "a user's";
    const rolesText = roles(
      me ? 'any (your own tokens).' : 'admin (any user; customers get 404, agents 403 for anyone but themselves).',
    );
    const params = me ? [] : ['UserId'];
    return [
      {
        id: me ? 'listMyTokens' : 'listUserTokens',
        tag: 'Users',
        summary: `List ${who} personal access tokens`,
        description: `A bare JSON array, paged, oldest first; never the secrets.${rolesText}`,
        access: 'token',
        needs: n.tokens.list,
        params: [...params, 'Page', 'PerPage'],
        success: {
          status: 200,
          shape: 'list',
          description: 'One page of tokens.',
          schema: listOf('PersonalToken'),
          example: [ex.personalToken],
        },
        errors: me ? [] : idErrors,
        curl: curl('GET', concrete),
      },
      {
        id: me ? 'getMyToken' : 'getUserToken',
        tag: 'Users',
        summary: `Read one of ${who} personal access tokens`,
        description: `Never the secret.${rolesText}`,
        access: 'token',
        needs: n.tokens.get,
        params: [...params, ...tokenPathParam],
        success: {
          status: 200,
          shape: 'single',
          description: 'The token.',
          schema: ref('PersonalToken'),
          example: ex.personalToken,
        },
        errors: idErrors,
        curl: curl('GET', `${concrete}/5`),
      },
      {
        id: me ? 'revokeMyToken' : 'revokeUserToken',
        tag: 'Users',
        summary: `Revoke one of ${who} personal access tokens`,
        description: `Revoked at once, in every process: the next request with it is 401. Answers the token as it was.${rolesText}`,
        access: 'token',
        needs: n.tokens.revoke,
        params: [...params, ...tokenPathParam],
        success: {
          status: 200,
          shape: 'written',
          description: 'The revoked token.',
          schema: ref('PersonalToken'),
          example: ex.personalToken,
        },
        errors: idErrors,
        curl: curl('DELETE', `${concrete}/5`),
      },
    ];
  };
  const tokenId = (ctx: RouteContext): number => idParam(ctx, 'tokenId', 'token');

  api.post(
    '/v1/users/me/tokens',
    {
      id: 'createMyToken',
      tag: 'Users',
      summary: 'Make a personal access token',
      description:
        'A credential for a script or an integration, instead of a password: narrowed to its scopes, expiring (default 90 days, at most 366), revocable. ' +
        'The answer is the only time the token is shown (Cache-Control: no-store; a repeat with the same Idempotency-Key answers the same token with token: null): the store keeps only its SHA-256. ' +
        "Revoked with its user's deletion, or when an admin sets that user's password; POST /v1/oauth/revoke ends it too. " +
        'Its scopes must lie within those of the login token asking for it (X:write covers X:read) and within what the role can use: else 422 with one error on scopes (42210 not_permitted) naming the scopes this login token can give. ' +
        'A user holds at most 100 tokens that have not expired: the 101st is 422 (42211 limit_reached).' +
        roles('any, for themselves only (admins cannot make tokens for others).'),
      access: 'token',
      needs: n.tokens.create,
      keyed: { access: r.createMyToken, secret: 'token' },
      body: { schema: 'PersonalTokenCreate', example: ex.personalTokenCreate },
      success: {
        status: 201,
        shape: 'secret',
        description: 'Created: the token with its secret, its URL in Location.',
        schema: ref('PersonalTokenCreated'),
        example: ex.personalTokenCreated,
      },
      errors: writeErrors,
      curl: curl('POST', '/v1/users/me/tokens', ex.personalTokenCreate),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      const body = await readBody(ctx, [mediaTypes.json]);
      const made = unwrap(
        await app.tokens.create(actor, decodeBody(PersonalTokenCreateBody, body)),
        personalTokenNames,
      );
      // no-store: the one answer that shows the token is kept by no cache (and for an Idempotency-Key repeat only without it).
      ctx.state.reply = createdWithSecret(
        personalTokenRepresentation(urls, made.record, made.token),
        urls.personalToken(made.record.userId, made.record.id),
      );
    },
  );

  for (const path of ['/v1/users/me/tokens', '/v1/users/:userId/tokens']) {
    const [list, get, revoke] = reads(path === '/v1/users/me/tokens') as [Declaration, Declaration, Declaration];
    const owner = (ctx: RouteContext): UserId | 'me' =>
      path.startsWith('/v1/users/me/') ? 'me' : (idParam(ctx, 'userId', 'user') as UserId);

    api.get(path, list, async (ctx) => {
      const l = unwrap(await app.tokens.list(actorOf(ctx), owner(ctx), decodePage(ctx.query)));
      ctx.state.reply = ok(
        l.items.map((r) => personalTokenRepresentation(urls, r)),
        { page: pageInfo(l) },
      );
    });

    api.get(`${path}/:tokenId`, get, async (ctx) => {
      const r = unwrap(await app.tokens.get(actorOf(ctx), owner(ctx), tokenId(ctx)));
      ctx.state.reply = ok(personalTokenRepresentation(urls, r), { lastModified: r.lastUsedAt ?? r.createdAt });
    });

    api.delete(`${path}/:tokenId`, revoke, async (ctx) => {
      const r = unwrap(await app.tokens.revoke(actorOf(ctx), owner(ctx), tokenId(ctx)));
      ctx.state.reply = ok(personalTokenRepresentation(urls, r), { lastModified: r.lastUsedAt ?? r.createdAt });
    });
  }
};
