import { examples } from '../openapi/examples.js';
import { ref } from '../openapi/json.js';
import type { GrantRefusal, OAuthError, TokenGrant } from '@support/application';
import { isScope, scopes, type Scope } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { LargeJsonBody } from '../conventions/json-thin.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { oauthErrorKind } from '../errors/error-table.js';
import { domainProblem, HttpProblem } from '../errors/http-problem.js';
import type { RouteContext, Services } from '../state.js';
import type { DeclaringRouter } from './declare.js';

// OAuth 2 (RFC 6749 password and refresh_token grants, RFC 7009 revocation). Bodies are
// form-encoded as the RFCs require, or JSON. Every answer is Cache-Control: no-store
// (pipeline/respond.ts marks every answer on a token endpoint's path); failures carry the
// RFC's `error` member beside this API's code/message/description.

const oauthProblem = (e: OAuthError): HttpProblem =>
  new HttpProblem(oauthErrorKind(e.error), e.description, { oauthError: e.error });
const invalidRequest = (description: string): HttpProblem =>
  oauthProblem({ _tag: 'OAuthError', error: 'invalid_request', description });

/** The parameters the token endpoints read (RFC 6749 §3.3, §4.3, §6; RFC 7009 §2.1). */
const knownParams = new Set([
  'grant_type',
  'username',
  'password',
  'scope',
  'refresh_token',
  'token',
  'token_type_hint',
]);

/** The body's parameters; RFC 6749 §3.2: a parameter must not be sent twice. */
const readParams = async (ctx: RouteContext): Promise<Readonly<Record<string, string>>> => {
  let body: unknown;
  try {
    const read = await readBody(ctx, [mediaTypes.form, mediaTypes.json]);
    body = read instanceof LargeJsonBody ? read.thinned(knownParams).value : read;
  } catch (e) {
    if (e instanceof HttpProblem) throw new HttpProblem(e.kind, e.description, { oauthError: 'invalid_request' });
    throw e;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidRequest('the body must hold the parameters as an object or a form');
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    // RFC 6749 §3.2: unrecognized parameters are ignored, whatever they hold.
    if (!knownParams.has(k)) continue;
    if (typeof v !== 'string') throw invalidRequest(`parameter ${k} must be given once, as a string`);
    params[k] = v;
  }
  return params;
};

const grantBody = (g: TokenGrant): Record<string, unknown> => ({
  access_token: g.accessToken,
  token_type: g.tokenType,
  expires_in: g.expiresIn,
  refresh_token: g.refreshToken,
  scope: g.scope,
});

/** The first few unknown scope names, quoted, and how many more there are (a 1 MiB scope stays a short answer). */
const unknownNames = (unknown: readonly string[]): string => {
  const shown = unknown
    .slice(0, 5)
    .map((n) => JSON.stringify(n.slice(0, 40)))
    .join(', ');
  return unknown.length > 5 ? `${shown} and ${unknown.length - 5} more` : shown;
};

/** RFC 6749 §3.3: space-separated scope names; an unknown one is invalid_scope. */
const decodeScope = (raw: string | undefined): readonly Scope[] | undefined => {
  if (raw === undefined) return undefined;
  const names = raw.split(' ').filter((n) => n !== '');
  const unknown = names.filter((n) => !isScope(n));
  if (names.length === 0 || unknown.length > 0) {
    throw oauthProblem({
      _tag: 'OAuthError',
      error: 'invalid_scope',
      description: `${names.length === 0 ? 'scope is empty' : `unknown scope ${unknownNames(unknown)}`}; scopes are ${scopes.join(' ')}`,
    });
  }
  return names.filter(isScope);
};

export const oauthRoutes = (api: DeclaringRouter, { app, urls }: Services): void => {
  const origin = urls.origin;
  const ex = examples(urls.origin);
  api.post(
    '/v1/oauth/token',
    {
      id: 'issueToken',
      tag: 'Authentication',
      summary: 'Get an access token',
      description:
        'RFC 6749: grant_type=password (username = e-mail, password) or grant_type=refresh_token. Refresh tokens rotate: using one invalidates it. ' +
        'Unknown user and wrong password answer identically. Answers carry Cache-Control: no-store. Counted against the client IP, never against a token. ' +
        'An account with 10 failed password checks in the last 15 minutes (from any address; a wrong current_password counts too) answers every password grant 429 (42903) with Retry-After, the right password included, and alike whether or not the account exists. ' +
        'A refresh chain ends REFRESH_MAX_AGE_S after its password grant (default 90 days), however often it is refreshed.',
      access: 'oauth',
      body: {
        schema: 'TokenRequest',
        example: ex.tokenPassword,
        form: true,
        examples: {
          password: ex.tokenPassword,
          password_narrowed: ex.tokenPasswordScoped,
          refresh_token: ex.tokenRefresh,
        },
      },
      success: {
        status: 200,
        shape: 'token',
        description: 'A new access token and refresh token.',
        schema: ref('TokenResponse'),
        example: ex.tokenResponse,
      },
      errors: ['PayloadTooLarge', 'UnsupportedMediaType'],
      curl: `curl -d grant_type=password -d username=ada@example.com -d 'password=correct horse battery staple' '${origin}/v1/oauth/token'`,
    },
    async (ctx) => {
      const p = await readParams(ctx);
      let grant: E.Either<GrantRefusal, TokenGrant>;
      switch (p.grant_type) {
        case 'password':
          grant = await app.auth.passwordGrant(p.username ?? '', p.password ?? '', decodeScope(p.scope));
          break;
        case 'refresh_token':
          grant = await app.auth.refreshGrant(p.refresh_token ?? '');
          break;
        case undefined:
          throw invalidRequest('grant_type is required: password or refresh_token');
        default:
          throw oauthProblem({
            _tag: 'OAuthError',
            error: 'unsupported_grant_type',
            description: `grant_type "${p.grant_type.slice(0, 40)}" is not supported; use password or refresh_token`,
          });
      }
      if (E.isLeft(grant))
        throw grant.left._tag === 'OAuthError' ? oauthProblem(grant.left) : domainProblem(grant.left);
      ctx.state.reply = { status: 200, body: grantBody(grant.right) };
    },
  );

  api.post(
    '/v1/oauth/revoke',
    {
      id: 'revokeToken',
      tag: 'Authentication',
      summary: 'Revoke a token',
      description:
        'RFC 7009: revokes an access or refresh token. 200 with an empty body whether or not the token was known.',
      access: 'oauth',
      body: { schema: 'RevokeRequest', example: ex.revoke, form: true },
      success: { status: 200, shape: 'empty', description: 'Revoked (or unknown). No body.' },
      errors: ['PayloadTooLarge', 'UnsupportedMediaType'],
      curl: `curl -d token=$TOKEN '${origin}/v1/oauth/revoke'`,
    },
    async (ctx) => {
      const p = await readParams(ctx);
      if (p.token === undefined || p.token === '')
        throw invalidRequest('token is required: the access or refresh token to revoke');
      await app.auth.revoke(p.token);
      // RFC 7009 §2.2: 200 whether or not the token was known, so nothing can be learnt from it.
      ctx.state.reply = { status: 200, body: undefined };
    },
  );
};
