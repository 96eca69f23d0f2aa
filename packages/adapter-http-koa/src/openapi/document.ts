import type { Scope } from '@support/domain';
import type { ApiVersions } from '../conventions/api-version.js';
import { maxBodyBytes } from '../conventions/request-body.js';
import { deprecationHeaders, type DeprecationSchedule } from '../conventions/deprecation.js';
import { componentHeaders } from './headers.js';
import { componentParameters } from './parameters.js';
import { errorResponses, notModified } from './responses.js';
import { examples } from './examples.js';
import type { Json } from './json.js';
import type { Operation } from './operation.js';
import { pathsObject } from './render.js';
import { componentSchemas } from './schemas/components.js';
import { docsOperations } from '../pipeline/docs.js';
import { healthOperations } from '../pipeline/health.js';
import { errorCodeRows, fieldErrorCodeRows } from './schemas/errors.js';

// THE OpenAPI 3.1 document of the API, served at GET /v1/openapi.json and rendered at /docs.
// Built from the same tables the code uses (error table, field limits, enums, versions,
// deprecation schedule). Edit the modules of this folder; nothing else describes the API.

export interface DocumentOptions {
  /** The origin of the server and of every URL in the examples. */
  readonly publicUrl: string;
  readonly versions: ApiVersions;
  readonly deprecations: DeprecationSchedule;
}

/** What each scope allows (contract §8.2), for the oauth2 scheme. */
const scopeDescriptions: Readonly<Record<Scope, string>> = {
  'tickets:read': 'Read tickets and their messages.',
  'tickets:write': 'Create, change and delete tickets and messages (includes tickets:read).',
  'users:read': 'Read users.',
  'users:write': 'Create, change and delete users, yourself included (includes users:read).',
  'groups:read': 'Read groups and their members.',
  'groups:write': 'Create, change and delete groups (includes groups:read).',
  'events:read': 'Read the change feed.',
  'webhooks:manage': 'Manage webhooks and their deliveries.',
};

const table = (head: readonly string[], rows: readonly (readonly (string | number)[])[]): string =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );

const deprecationSection = (o: DocumentOptions): string => {
  if (o.deprecations.length === 0)
    return '## Deprecations\n\nNothing is deprecated. The schedule is served at `GET /v1/deprecations`.';
  const rows = o.deprecations.map((d) => {
    const h = deprecationHeaders(o.publicUrl, d);
    return [
      d.id,
      d.description,
      `${d.deprecatedAt} (\`Deprecation: ${h.Deprecation}\`)`,
      `${d.sunsetAt} (\`Sunset: ${h.Sunset}\`)`,
      d.replacement,
    ];
  });
  return [
    '## Deprecations',
    '',
    'A deprecated behaviour answers as usual plus `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link: <…/v1/deprecations#<id>>; rel="deprecation"`. ' +
      'The schedule is served at `GET /v1/deprecations`; after the sunset date the behaviour may be removed.',
    '',
    table(['id', 'what', 'deprecated', 'sunset', 'use instead'], rows),
  ].join('\n');
};

const description = (o: DocumentOptions): string =>
  [
    'A support-ticket service: tickets, their messages, users and groups, as JSON over HTTPS.',
    '',
    '## Conventions',
    '',
    '- **TLS only.** Plain HTTP is answered 403 (code 40302), never redirected.',
    `- **Versions.** The major version is in the path (\`/v1\`); the minor version in the request header \`X-Api-Version\` (${o.versions.supported.join(', ')}; absent: ${o.versions.current}; unknown: 400). Every answer names the version served in \`X-Api-Version\`.`,
    '- **Authentication.** Get a token from `POST /v1/oauth/token` and send it as `Authorization: Bearer <token>`, as `Authorization: Basic base64(<token>:)` or as `?access_token=<token>` — one way per request. Missing, unknown, revoked or expired: 401 with `WWW-Authenticate: Bearer realm="support"`. Another customer\'s ticket is 404, never 403.',
    '- **Format.** Bodies are JSON with snake_case fields, pretty-printed unless `pretty=false`, gzip when accepted. Request bodies need `Content-Type: application/json` (PATCH also `application/merge-patch+json`; the token endpoints also form encoding), in UTF-8 (another declared charset is 415), else 415; bytes that are not UTF-8 and a key twice in a JSON object are 400; over ' +
      `${maxBodyBytes} bytes: 413. A \`.json\` suffix is accepted on every URL (\`/v1/tickets/7.json\`); \`.xml\` is 406; the \`Accept\` header is not negotiated (answers are JSON whatever it names). Unknown and server-set (readOnly) body fields are refused with 422, one error per field.`,
    '- **Methods.** `HEAD` works wherever `GET` does; `OPTIONS` answers 204 with `Allow`; any other method on a known URL (`TRACE`, `QUERY`, ...) is 405 with `Allow`; `CONNECT` and a method the server cannot parse are 501. Clients that can only send GET and POST may POST with `X-HTTP-Method-Override: PUT|PATCH|DELETE` (honoured on POST only; another value is 400). Any other URL is 404.',
    '- **Lists** are bare JSON arrays, paged by `page` and `per_page`; `Link` carries absolute `first`, `prev`, `next` and `last` URLs and `X-Total-Count` the total.',
    '- **Envelope and JSONP:** see the section below; they are left out of the operations on purpose.',
    '- **Caching.** Every 200 GET carries a strong `ETag` (from the content, not from pretty-printing or gzip), and every single resource `Last-Modified` (lists carry none: the newest item in a list cannot show that another was deleted or left it); `If-None-Match` / `If-Modified-Since` give 304. `If-Match` on PUT, PATCH and DELETE guards against lost updates (412). Answers carry `Cache-Control: private, no-cache` and `Vary: Accept-Encoding, Authorization`.',
    '- **Rate limits.** Every answer but `/healthz` and `/readyz` carries `X-Rate-Limit-Limit`, `X-Rate-Limit-Remaining` and `X-Rate-Limit-Reset` (seconds left in the window); over the limit: 429 with `Retry-After`. The limit is per user (all their tokens together); unauthenticated requests count per client IP with a tenth of it.',
    '- **Safe retries.** A `POST` under `/v1` (not `/v1/oauth/*`) may carry `Idempotency-Key`: 1-255 printable ASCII characters (`!` to `~`), else 400 (40008). Keys belong to the caller (the user, all their tokens together) and are kept 24 hours. The first request with a key runs; its answer is kept when its real status (the `status_code` of an envelope) is 2xx or 4xx but not 401, 409 or 429, and a repeat with the same method, path and body gets it again (status, body, `Location`, `ETag`, `Last-Modified`) with `Idempotent-Replayed: true`, changing nothing, once the token, role and scopes of the caller are checked again for that operation (a user demoted since, or a narrower token of theirs, gets the refusal of today, not the kept answer). A kept answer never holds a secret: a repeat of a webhook creation or `rotate-secret` answers `secret: null`, of the creation of a personal token `token: null`. The answer is kept, not its rendering: a repeat is rendered as it asks (`envelope`, `callback`, `pretty`, gzip), so the same request gets the same bytes, and a repeat with another presentation gets the same answer in that presentation. The same key with another method, path or body: 422 (42250); while the first request still runs: 409 (40902) with `Retry-After: 1`; when the first request wrote but the service stopped (a crash) before its answer was kept: 409 (40903), for as long as the key is kept, and the request is never run twice under one key. A 5xx is not kept: the repeat runs again. A replay counts against the rate limit like any request.',
    "- **Request ids.** Every answer carries `X-Request-Id` (the client's own, when it is 1-128 characters of `[A-Za-z0-9._-]`).",
    '',
    '## Envelope and JSONP (`envelope`, `callback`)',
    '',
    'For clients that cannot read a status or headers (a `<script>` tag, some proxies). Both query parameters work on every operation under `/v1`, and are described here rather than on each operation (as GitHub does for its JSONP): they change the status, the body and the media type of every answer, so a client generated from the operations sees each answer as it really is without them.',
    '',
    '- `envelope=true`: every answer, errors too, is **200** with `Content-Type: application/json` and the body `{status_code, next_page, response}` (schema `Envelope`): `status_code` is the real status, `response` the body the answer would have had (null when none), `next_page` the `Link` rel="next" URL of a list (null on the last page and elsewhere). `envelope=false` (the default) changes nothing; another value is 400.',
    '- `callback=<name>`: the same envelope, sent as `/**/<name>(<envelope>);` with `Content-Type: application/javascript` and `X-Content-Type-Options: nosniff`. `<name>` must match `^[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*$` (at most 128 characters), else 400. A script cannot send headers: send the token as `access_token`.',
    '- The headers stay those of the real answer (`Location`, `Link`, `X-Total-Count`, the rate-limit headers...), except: an enveloped answer carries an `ETag` only when the real status is 200 or 201 (an enveloped error has none; the ETag of a JSONP answer depends on the callback name), and a 304 stays a 304 without a body.',
    '- With an `Idempotency-Key`, what is kept is decided on the real status, and a repeat is rendered as the repeat asks (see Safe retries).',
    '',
    'Examples:',
    '',
    '```',
    'GET /v1/tickets/999?envelope=true',
    '200 {"status_code": 404, "next_page": null, "response": {"code": 40402, "message": "Resource not found", "description": "there is no ticket 999"}}',
    '',
    'GET /v1/tickets?per_page=2&callback=app.on_tickets&access_token=<token>',
    '200 Content-Type: application/javascript; charset=utf-8',
    '/**/app.on_tickets({"status_code": 200, "next_page": "https://…/v1/tickets?per_page=2&page=2&callback=app.on_tickets", "response": [{"id": 7, …}, …]});',
    '```',
    '',
    '## Change feed and webhooks',
    '',
    '- **The feed** (`GET /v1/events`, agents and admins): every committed change of a ticket, message, user or group appends one event `{seq, type, occurred_at, resource, data}`; `data` is the resource after the change as an admin reads it (never a password), null for `*.deleted`. A change through a reference (a customer renamed, a group deleted) appends one event per ticket or user whose representation changed. `seq` counts 1, 2, 3... in commit order, never reused, and without gaps: once you have seen seq N, no event at or below N can appear later. So a consumer keeps one number, the last seq it processed, and reads `?after=<it>`; `Link: rel="next"` is always there to follow.',
    '- **Long poll.** With `wait=<0-30>` a read that finds nothing newer is held until an event arrives (it answers at once then) or the seconds are up (then `[]`); a server that is stopping answers held reads at once.',
    '- **Retention.** Events are kept `EVENTS_RETENTION_DAYS` (default 30). An `after` older than the oldest kept event is `410` with code 41002 and `oldest_seq`, the oldest still available: read again from `after = oldest_seq - 1`, knowing the events before it are lost to you.',
    '- **Webhooks** (`/v1/webhooks`, admins): each event whose type a webhook subscribes to (`events`, or `["*"]`) is POSTed to its `url` as the same JSON object as in the feed, signed the Standard Webhooks way (https://www.standardwebhooks.com), so any of its libraries verifies it: headers `webhook-id` (unique per event and webhook, the same on every retry: deduplicate by it), `webhook-timestamp` (Unix seconds) and `webhook-signature`: `v1,` + base64 of HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`. The secret is answered once, by the creation (and by `rotate-secret`, which replaces it); it is never shown again.',
    '- **Delivery.** Per webhook, events go out one at a time in `seq` order, at least once. A delivery succeeds on any 2xx within 10 s; redirects are not followed. Otherwise it is retried after the delays of `WEBHOOK_RETRY_S` (default 5 s, 30 s, 2 min, 10 min, 1 h, 6 h), later events waiting behind it; after the last retry fails the webhook turns `active: false` (PATCH `active: true` resumes it from that event). `GET /v1/webhooks/{webhook_id}/deliveries` lists recent attempts; `POST /v1/webhooks/{webhook_id}/replay` with `{"after": <seq>}` sends again from there.',
    '- **SSRF guard.** A webhook `url` must be `https://` and every address its host resolves to must be public (not loopback, private, link-local, multicast or another special-purpose range, IPv4 inside IPv6 included); checked at creation (422 on `url`) and again at every attempt, connecting to the address that was checked. A server started with `WEBHOOK_ALLOW_PRIVATE=true` (development, tests) also accepts `http://` and private addresses.',
    '',
    '## Errors',
    '',
    'Every error is JSON: `{code, message, description}`; a refused body adds `errors: [{code, field, message}]`, one per field, and a refused query parameter adds one entry per parameter. `code` is the HTTP status × 100 + a number:',
    '',
    table(
      ['code', 'status', 'message'],
      errorCodeRows().map((r) => [r.code, r.status, r.message]),
    ),
    '',
    '`errors[].code` of a 422:',
    '',
    table(
      ['code', 'reason'],
      fieldErrorCodeRows().map((r) => [r.code, r.reason]),
    ),
    '',
    deprecationSection(o),
  ].join('\n');

/**
 * The document for a server on `publicUrl`, with the operations its routes declare (in the
 * router's order; routes/declare.ts) and those the pipeline answers (/docs, /healthz, /readyz).
 */
export const buildDocument = (o: DocumentOptions, operations: readonly Operation[]): Json => {
  const ex = examples(o.publicUrl);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Support Ticket API',
      version: o.versions.current,
      description: description(o),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: o.publicUrl, description: 'This server' }],
    tags: [
      { name: 'Authentication', description: 'OAuth 2 token endpoints (RFC 6749, RFC 7009).' },
      { name: 'Tickets', description: 'Support tickets.' },
      { name: 'Ticket fields', description: 'Custom ticket fields that admins define (typed, filterable, sortable).' },
      { name: 'Messages', description: 'The messages of a ticket (a sub-resource).' },
      { name: 'Users', description: 'Customers, agents and admins.' },
      { name: 'Groups', description: 'Groups of users.' },
      { name: 'Events', description: 'The change feed: every change, once, in order.' },
      { name: 'Webhooks', description: 'Signed deliveries of the change feed to receivers (admins).' },
      { name: 'Documentation', description: 'This document, its rendering and the deprecation schedule.' },
      { name: 'Health', description: 'For load balancers and orchestrators.' },
    ],
    security: [{ bearer: [] }, { basicToken: [] }, { accessToken: [] }, { oauth2: [] }],
    paths: pathsObject(o.versions, ex, [
      ...operations,
      ...docsOperations(o.publicUrl),
      ...healthOperations(o.publicUrl),
    ]),
    components: {
      schemas: componentSchemas(),
      parameters: componentParameters(o.versions),
      responses: { NotModified: notModified(o.versions), ...errorResponses(o.versions) },
      headers: componentHeaders(o.versions),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <access token> (RFC 6750).' },
        basicToken: {
          type: 'http',
          scheme: 'basic',
          description:
            'Authorization: Basic base64(<access token>:) — the access token as user name and an empty password (not an e-mail and password).',
        },
        accessToken: {
          type: 'apiKey',
          in: 'query',
          name: 'access_token',
          description:
            '?access_token=<access token>, for JSONP (which cannot send headers). One way per request: with an Authorization header too, the answer is 400 (40005). Never copied into Link URLs; masked in logs.',
        },
        oauth2: {
          type: 'oauth2',
          description:
            "The resource owner password grant (RFC 6749 §4.3) with refresh tokens. A request needs its user's role AND the token's scopes (a scope never widens a role); " +
            'without scope a login token has every scope its role can use. Personal access tokens (POST /v1/users/me/tokens) carry the scopes they were made with.',
          flows: {
            password: {
              tokenUrl: `${o.publicUrl}/v1/oauth/token`,
              refreshUrl: `${o.publicUrl}/v1/oauth/token`,
              scopes: scopeDescriptions,
            },
          },
        },
      },
    },
  };
};
