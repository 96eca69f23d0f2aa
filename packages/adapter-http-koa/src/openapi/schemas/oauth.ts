import type { Json } from '../json.js';

// The bodies of the token endpoints (RFC 6749, RFC 7009). Their failures: OAuthError in errors.ts.

export const oauthSchemas = (): Record<string, Json> => ({
  TokenRequest: {
    description:
      'RFC 6749 §4.3 (password) or §6 (refresh_token) grant; form-encoded or JSON. Each parameter it names is a string given at most once (a JSON value that is not a string, or a form parameter sent twice, is 400 invalid_request); any other parameter is ignored, whatever it holds (RFC 6749 §3.2).',
    oneOf: [
      {
        type: 'object',
        title: 'password grant',
        required: ['grant_type', 'username', 'password'],
        additionalProperties: true,
        properties: {
          grant_type: { const: 'password' },
          username: { type: 'string', description: "The user's e-mail address." },
          password: { type: 'string', format: 'password', writeOnly: true },
          scope: {
            type: 'string',
            description:
              'Optional (RFC 6749 §3.3): space-separated scopes to narrow the login token to (tickets:read tickets:write users:read users:write groups:read groups:write events:read webhooks:manage). ' +
              "The token gets those its role can use (the answer's scope says which); an unknown scope, or none usable, is 400 invalid_scope (40013). Without it: every scope the role can use.",
          },
        },
      },
      {
        type: 'object',
        title: 'refresh_token grant',
        required: ['grant_type', 'refresh_token'],
        additionalProperties: true,
        properties: {
          grant_type: { const: 'refresh_token' },
          refresh_token: { type: 'string', description: 'Single use: refresh tokens rotate.' },
        },
      },
    ],
  },
  TokenResponse: {
    type: 'object',
    description: 'RFC 6749 §5.1. Tokens carry at least 256 random bits, base64url.',
    additionalProperties: false,
    required: ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope'],
    properties: {
      access_token: { type: 'string', pattern: '^[A-Za-z0-9_-]{43,}$' },
      token_type: { type: 'string', const: 'bearer' },
      expires_in: { type: 'integer', minimum: 1, description: 'Seconds the access token is valid (TOKEN_TTL_S).' },
      refresh_token: { type: 'string', pattern: '^[A-Za-z0-9_-]{43,}$' },
      scope: {
        type: 'string',
        description: 'The scopes the access token holds, space-separated (a refresh keeps them).',
        examples: ['tickets:read'],
      },
    },
  },
  RevokeRequest: {
    type: 'object',
    description:
      'RFC 7009: an access or refresh token; form-encoded or JSON. token and token_type_hint are strings given at most once (else 400 invalid_request); any other parameter is ignored, whatever it holds (RFC 6749 §3.2).',
    required: ['token'],
    additionalProperties: true,
    properties: {
      token: { type: 'string', minLength: 1 },
      token_type_hint: {
        type: 'string',
        description:
          'access_token or refresh_token; a hint only: any other value is ignored (RFC 7009 §2.2.1 lets the server ignore it), and the token is looked up as both.',
        examples: ['access_token', 'refresh_token'],
      },
    },
  },
});
