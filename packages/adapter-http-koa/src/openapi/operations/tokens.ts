import { curlOn, idErrors, listOf, roles, writeErrors, type Operation, type OperationContext } from './operation.js';
import { ref } from '../json.js';

// routes/tokens.ts: personal access tokens (contract §8.1).

const tokenPathParam = ['TokenId'];

export const tokenOperations = ({ origin, ex }: OperationContext): Operation[] => {
  const curl = curlOn(origin);
  const reads = (me: boolean): Operation[] => {
    const base = me ? '/v1/users/me/tokens' : '/v1/users/{user_id}/tokens';
    const concrete = me ? base : base.replace('{user_id}', '12');
    const who = me ? 'your' : "a user's";
    const rolesText = roles(
      me ? 'any (your own tokens).' : 'admin (any user; customers get 404, agents 403 for anyone but themselves).',
    );
    const params = me ? [] : ['UserId'];
    return [
      {
        path: base,
        method: 'get',
        id: me ? 'listMyTokens' : 'listUserTokens',
        tag: 'Users',
        summary: `List ${who} personal access tokens`,
        description: `A bare JSON array, paged, oldest first; never the secrets.${rolesText}`,
        access: 'token',
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
        path: `${base}/{token_id}`,
        method: 'get',
        id: me ? 'getMyToken' : 'getUserToken',
        tag: 'Users',
        summary: `Read one of ${who} personal access tokens`,
        description: `Never the secret.${rolesText}`,
        access: 'token',
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
        path: `${base}/{token_id}`,
        method: 'delete',
        id: me ? 'revokeMyToken' : 'revokeUserToken',
        tag: 'Users',
        summary: `Revoke one of ${who} personal access tokens`,
        description: `Revoked at once, in every process: the next request with it is 401. Answers the token as it was.${rolesText}`,
        access: 'token',
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
  return [
    {
      path: '/v1/users/me/tokens',
      method: 'post',
      id: 'createMyToken',
      tag: 'Users',
      summary: 'Make a personal access token',
      description:
        'A credential for a script or an integration, instead of a password: narrowed to its scopes, expiring (default 90 days, at most 366), revocable. ' +
        'The answer is the only time the token is shown (Cache-Control: no-store; never kept for an Idempotency-Key replay): the store keeps only its SHA-256. ' +
        "Revoked with its user's deletion, or when an admin sets that user's password; POST /v1/oauth/revoke ends it too." +
        roles('any, for themselves only (admins cannot make tokens for others).'),
      access: 'token',
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
    ...reads(true),
    ...reads(false),
  ];
};
