import type { ApiVersions } from '../conventions/api-version.js';
import type { Json } from './json.js';

// The response headers of the document, each described once and referred to by every
// answer that carries it.

const headerSchemas = (versions: ApiVersions): Record<string, { description: string; schema: Json }> => ({
  'X-Request-Id': {
    description:
      "The request's id: the client's own X-Request-Id when it is 1-128 characters of [A-Za-z0-9._-], else a new one. Quote it when reporting a problem.",
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
  },
  'X-Api-Version': {
    description: 'The minor version the answer was served as.',
    schema: { type: 'string', enum: [...versions.supported] },
  },
  'Cache-Control': {
    description: '"private, no-cache" (revalidate with ETag/Last-Modified); "no-store" on token answers.',
    schema: { type: 'string' },
  },
  Vary: { description: 'Accept-Encoding, Authorization.', schema: { type: 'string' } },
  'X-Content-Type-Options': { description: 'nosniff.', schema: { type: 'string', const: 'nosniff' } },
  'X-Rate-Limit-Limit': {
    description: 'Requests allowed per window (per user, all their tokens together; unauthenticated: per client IP).',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-Rate-Limit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-Rate-Limit-Reset': {
    description: 'Seconds until the current window ends (a count of seconds, not a timestamp).',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  ETag: {
    description: 'A strong entity tag derived from the content (not from pretty-printing or gzip).',
    schema: { type: 'string', pattern: '^"[^"]*"$' },
  },
  'Last-Modified': {
    description:
      "RFC 1123 date of the resource's updated_at. Lists carry none (their newest item cannot show a deleted or departed one): revalidate them with ETag.",
    schema: { type: 'string' },
  },
  Link: {
    description:
      'RFC 8288 pagination links: absolute URLs for rel="first", "prev", "next", "last", keeping every query parameter except access_token. The change feed (GET /v1/events) has rel="next" only, always, with after set to the last seq of the page. On a deprecated answer also <...>; rel="deprecation".',
    schema: { type: 'string' },
  },
  'X-Total-Count': { description: 'How many items the whole list holds.', schema: { type: 'integer', minimum: 0 } },
  Location: { description: 'The absolute URL of the new resource.', schema: { type: 'string', format: 'uri' } },
  'WWW-Authenticate': {
    description:
      'Bearer realm="support" (RFC 6750), with error="invalid_token" when a token was sent and refused; on a 403 for scope, error="insufficient_scope", scope="<the scopes the operation needs>".',
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods this URL accepts.', schema: { type: 'string' } },
  Deprecation: {
    description: 'RFC 9745: when this behaviour was deprecated, as @<epoch seconds>.',
    schema: { type: 'string', pattern: '^@[0-9]+$' },
  },
  Sunset: {
    description: 'RFC 8594: the HTTP date after which this behaviour may stop working.',
    schema: { type: 'string' },
  },
  'Accept-Ranges': {
    description: 'bytes: a single Range may be asked for.',
    schema: { type: 'string', const: 'bytes' },
  },
  'Content-Range': {
    description: 'The part sent (bytes first-last/size; on a 416, bytes */size).',
    schema: { type: 'string', pattern: '^bytes (\\d+-\\d+|\\*)/\\d+$' },
  },
  'Content-Disposition': {
    description:
      "attachment (inline for PNG, JPEG, GIF and WebP only) with the file's name as filename (ASCII) and filename*=UTF-8''... (exact).",
    schema: { type: 'string', pattern: '^(attachment|inline); filename="[^"]*"; filename\\*=UTF-8\'\'' },
  },
  'Content-Security-Policy': {
    description: 'sandbox: a browser that opens the bytes runs nothing in them.',
    schema: { type: 'string', pattern: '^sandbox' },
  },
  Pragma: { description: 'no-cache (token answers, for HTTP/1.0 caches).', schema: { type: 'string' } },
  'X-OAuth-Scopes': {
    description:
      'On every answer to a token narrower than its role (a personal access token, a login asked for with scope): the scopes the token holds, comma-separated.',
    schema: { type: 'string' },
  },
  'X-Accepted-OAuth-Scopes': {
    description: 'With X-OAuth-Scopes: the scopes this operation needs (empty when it needs none).',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description:
      "true on the answer to a repeated POST with an Idempotency-Key: the first request's answer again (the same bytes for the same presentation); nothing was changed by this request.",
    schema: { type: 'string', const: 'true' },
  },
});

export type HeaderName = keyof ReturnType<typeof headerSchemas>;

/** The headers of the document, each optional (its name) and required (its name + ".required"). */
export const componentHeaders = (versions: ApiVersions): Record<string, Json> => {
  const out: Record<string, Json> = {};
  for (const [name, h] of Object.entries(headerSchemas(versions))) {
    out[name] = { ...h };
    out[`${name}.required`] = { ...h, required: true };
  }
  return out;
};

/** A response's headers object, by reference to the components. */
export const headerObjects = (
  _versions: ApiVersions,
  required: readonly HeaderName[],
  optional: readonly HeaderName[] = [],
): Json => {
  const out: Json = {};
  for (const name of required) out[name] = { $ref: `#/components/headers/${name}.required` };
  for (const name of optional) if (!required.includes(name)) out[name] = { $ref: `#/components/headers/${name}` };
  return out;
};

/** Every answer of the Koa application carries these. */
export const baseHeaders: readonly HeaderName[] = [
  'X-Request-Id',
  'X-Api-Version',
  'Cache-Control',
  'Vary',
  'X-Content-Type-Options',
];
export const rateHeaders: readonly HeaderName[] = [
  'X-Rate-Limit-Limit',
  'X-Rate-Limit-Remaining',
  'X-Rate-Limit-Reset',
];
