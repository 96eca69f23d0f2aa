import type { Operation, OperationContext } from './operation.js';
import { ref } from '../json.js';

// routes/oauth.ts: the token endpoints (RFC 6749, RFC 7009).

export const oauthOperations = ({ origin, ex }: OperationContext): Operation[] => [
  {
    path: '/v1/oauth/token',
    method: 'post',
    id: 'issueToken',
    tag: 'Authentication',
    summary: 'Get an access token',
    description:
      'RFC 6749: grant_type=password (username = e-mail, password) or grant_type=refresh_token. Refresh tokens rotate: using one invalidates it. ' +
      'Unknown user and wrong password answer identically. Answers carry Cache-Control: no-store. Counted against the client IP, never against a token.',
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
  {
    path: '/v1/oauth/revoke',
    method: 'post',
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
];
