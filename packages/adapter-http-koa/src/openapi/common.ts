import { embeddable, pageBounds, sortFields, ticketFields, ticketStates } from '@support/domain';
import type { ApiVersions } from '../conventions/api-version.js';
import { errorKinds } from '../errors/error-table.js';
import { errorCodeRows, ref, type Json } from './schemas.js';

// Headers, parameters and responses shared by the operations of the document.

// ---------------------------------------------------------------- headers

const headerSchemas = (versions: ApiVersions): Record<string, { description: string; schema: Json }> => ({
  'X-Request-Id': {
    description: "The request's id: the client's own X-Request-Id when it is 1-128 characters of [A-Za-z0-9._-], else a new one. Quote it when reporting a problem.",
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
  },
  'X-Api-Version': { description: 'The minor version the answer was served as.', schema: { type: 'string', enum: [...versions.supported] } },
  'Cache-Control': { description: '"private, no-cache" (revalidate with ETag/Last-Modified); "no-store" on token answers.', schema: { type: 'string' } },
  Vary: { description: 'Accept-Encoding, Authorization.', schema: { type: 'string' } },
  'X-Content-Type-Options': { description: 'nosniff.', schema: { type: 'string', const: 'nosniff' } },
  'X-Rate-Limit-Limit': { description: 'Requests allowed per window (per user, all their tokens together; unauthenticated: per client IP).', schema: { type: 'integer', minimum: 0 } },
  'X-Rate-Limit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'X-Rate-Limit-Reset': { description: 'Seconds until the current window ends (a count of seconds, not a timestamp).', schema: { type: 'integer', minimum: 0 } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  ETag: { description: 'A strong entity tag derived from the content (not from pretty-printing or gzip).', schema: { type: 'string', pattern: '^"[^"]*"$' } },
  'Last-Modified': { description: 'RFC 1123 date of the newest change shown (for a list: the newest updated_at in it; absent for an empty list).', schema: { type: 'string' } },
  Link: {
    description:
      'RFC 8288 pagination links: absolute URLs for rel="first", "prev", "next", "last", keeping every query parameter except access_token. On a deprecated answer also <...>; rel="deprecation".',
    schema: { type: 'string' },
  },
  'X-Total-Count': { description: 'How many items the whole list holds.', schema: { type: 'integer', minimum: 0 } },
  Location: { description: 'The absolute URL of the new resource.', schema: { type: 'string', format: 'uri' } },
  'WWW-Authenticate': { description: 'Bearer realm="support" (RFC 6750), with error="invalid_token" when a token was sent and refused.', schema: { type: 'string' } },
  Allow: { description: 'The methods this URL accepts.', schema: { type: 'string' } },
  Deprecation: { description: 'RFC 9745: when this behaviour was deprecated, as @<epoch seconds>.', schema: { type: 'string', pattern: '^@[0-9]+$' } },
  Sunset: { description: 'RFC 8594: the HTTP date after which this behaviour may stop working.', schema: { type: 'string' } },
  Pragma: { description: 'no-cache (token answers, for HTTP/1.0 caches).', schema: { type: 'string' } },
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
export const headerObjects = (_versions: ApiVersions, required: readonly HeaderName[], optional: readonly HeaderName[] = []): Json => {
  const out: Json = {};
  for (const name of required) out[name] = { $ref: `#/components/headers/${name}.required` };
  for (const name of optional) if (!required.includes(name)) out[name] = { $ref: `#/components/headers/${name}` };
  return out;
};

/** Every answer of the Koa application carries these. */
export const baseHeaders: readonly HeaderName[] = ['X-Request-Id', 'X-Api-Version', 'Cache-Control', 'Vary', 'X-Content-Type-Options'];
export const rateHeaders: readonly HeaderName[] = ['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset'];

// ---------------------------------------------------------------- parameters

const flag = (name: string, fallback: boolean, description: string): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'boolean', default: fallback },
});

const commaArray = (name: string, values: readonly string[], description: string, example: string): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  style: 'form',
  explode: false,
  schema: { type: 'array', items: { type: 'string', enum: [...values] }, uniqueItems: true },
  example: example.split(','),
});

const sortPattern = `^[-+]?(${sortFields.join('|')})(,[-+]?(${sortFields.join('|')}))*$`;
const embedValues = Object.entries(embeddable).flatMap(([relation, fields]) => [relation, ...fields.map((f) => `${relation}.${f}`)]);

const pathId = (name: string, what: string): Json => ({
  name,
  in: 'path',
  required: true,
  description: `The id of the ${what}: a positive integer in canonical decimal form (anything else, such as 007 or abc, is 404).`,
  schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  example: 7,
});

export const componentParameters = (versions: ApiVersions): Record<string, Json> => ({
  TicketId: pathId('ticket_id', 'ticket'),
  MessageId: { ...pathId('message_id', 'message (its number inside the ticket: 1, 2, 3...)'), example: 1 },
  UserId: pathId('user_id', 'user'),
  GroupId: pathId('group_id', 'group'),
  DocsFile: {
    name: 'file',
    in: 'path',
    required: true,
    description: 'A file the documentation page names, such as swagger-ui.css.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]+$' },
    example: 'swagger-ui.css',
  },
  State: commaArray('state', ticketStates, 'Only tickets in these states (one value or a comma list; repeating the parameter works too). Absent: every state.', 'open,pending'),
  Sort: {
    name: 'sort',
    in: 'query',
    required: false,
    description:
      `Comma list of sort rules over ${sortFields.join(', ')}; a leading - sorts descending. priority sorts by rank (low < normal < high < urgent), state by life cycle (open, pending, closed), a null closed_at first ascending. ` +
      'id is always the final tie-breaker, in the direction of the last rule. Default -created_at (-closed_at for recently_closed).',
    schema: { type: 'string', pattern: sortPattern, default: '-created_at' },
    example: '-priority,created_at',
  },
  Q: {
    name: 'q',
    in: 'query',
    required: false,
    description:
      'Search terms separated by spaces: a ticket matches when every term equals a word of its subject, summary or customer name, compared without regard to case and accents (a word is a run of letters and digits). ' +
      'The value recently_closed is the saved search of GET /v1/tickets/recently_closed.',
    schema: { type: 'string' },
    example: 'printer fire',
  },
  Fields: commaArray('fields', ticketFields, 'Only these top-level fields of each ticket (customer_name included).', 'id,subject,customer_name'),
  Embed: commaArray(
    'embed',
    embedValues,
    'Expand related resources: customer, assigned_user, group whole, or <relation>.<field> for the link plus that field (customer.name). A customer sees other users by id, url and name only.',
    'customer.name,assigned_user',
  ),
  Page: {
    name: 'page',
    in: 'query',
    required: false,
    description: 'The page to answer, from 1. A page past the last answers an empty list (with the Link header).',
    schema: { type: 'integer', minimum: 1, maximum: pageBounds.maxPage, default: 1 },
    example: 2,
  },
  PerPage: {
    name: 'per_page',
    in: 'query',
    required: false,
    description: `Items per page, 1-${pageBounds.maxPerPage}.`,
    schema: { type: 'integer', minimum: 1, maximum: pageBounds.maxPerPage, default: pageBounds.defaultPerPage },
    example: 50,
  },
  Pretty: flag('pretty', true, 'JSON is indented with 2 spaces unless pretty=false.'),
  Envelope: flag(
    'envelope',
    false,
    'envelope=true: the answer is always 200 and its body is an Envelope {status_code, next_page, response} holding the real status, the next page and the body (errors too).',
  ),
  Callback: {
    name: 'callback',
    in: 'query',
    required: false,
    description:
      'JSONP: the answer is 200, Content-Type application/javascript, and the body is /**/<callback>(<Envelope>); — send the token as access_token. Must be a JavaScript identifier path (at most 128 characters), else 400.',
    schema: { type: 'string', maxLength: 128, pattern: '^[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*$' },
    example: 'app.on_tickets',
  },
  AccessToken: {
    name: 'access_token',
    in: 'query',
    required: false,
    description:
      'The access token in the query string (for JSONP, which cannot send headers). Use one way per request: with an Authorization header too, the answer is 400. Never copied into Link URLs; masked in logs.',
    schema: { type: 'string' },
  },
  ApiVersion: {
    name: 'X-Api-Version',
    in: 'header',
    required: false,
    description: `The minor version to serve (${versions.supported.join(', ')}). Absent: the newest, ${versions.current}. Unknown: 400 (40003).`,
    schema: { type: 'string', enum: [...versions.supported] },
  },
  RequestId: {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description: 'Your own id for this request (1-128 characters of [A-Za-z0-9._-]); echoed in the answer and the logs.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'An ETag you have: when it still matches, the answer is 304 without a body.',
    schema: { type: 'string' },
  },
  IfModifiedSince: {
    name: 'If-Modified-Since',
    in: 'header',
    required: false,
    description: 'An HTTP date (RFC 1123, RFC 850 or asctime form): when nothing shown changed since, the answer is 304. Ignored when If-None-Match is sent.',
    schema: { type: 'string' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'Lost-update protection: the ETag of the representation you based the change on. When the resource has changed since, the answer is 412 and nothing is written.',
    schema: { type: 'string' },
  },
});

export const param = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });

// ---------------------------------------------------------------- error responses

export interface ErrorExample {
  readonly status: number;
  readonly body: Json;
}

const codesOf = (status: number): string =>
  errorCodeRows()
    .filter((r) => r.status === status)
    .map((r) => `${r.code} ${r.message}`)
    .join('; ');

const problemExample = (name: keyof typeof errorKinds, description: string, extra: Json = {}): Json => ({
  code: errorKinds[name].code,
  message: errorKinds[name].message,
  description,
  ...extra,
});

/** The error answers, by the name operations refer to them with. */
export const errorResponses = (versions: ApiVersions): Record<string, Json> => {
  const answer = (status: number, what: string, example: Json, opts: { schema?: string; headers?: readonly HeaderName[]; rate?: boolean; minimal?: boolean } = {}): Json => {
    const required: HeaderName[] = opts.minimal === true ? ['X-Request-Id', 'Cache-Control'] : [...baseHeaders, ...(opts.rate === false ? [] : rateHeaders), ...(opts.headers ?? [])];
    const optional: HeaderName[] = [...baseHeaders, ...rateHeaders];
    return {
      description: `${what} Codes: ${codesOf(status)}.`,
      headers: headerObjects(versions, required, optional),
      content: { 'application/json': { schema: ref(opts.schema ?? 'Error'), example } },
    };
  };
  return {
    BadRequest: answer(
      400,
      'Malformed request: a bad query parameter (every bad one named in errors), a malformed or empty body (malformed JSON, bytes that are not UTF-8, a key given twice in a JSON object — I-JSON, RFC 7493), an unknown X-Api-Version, a bad X-HTTP-Method-Override, a token sent more than one way, or a request Node could not parse (then only X-Request-Id and Cache-Control are sent).',
      problemExample('badQueryParameter', 'state: unknown state "opened"; states are: open, pending, closed', {
        errors: [{ code: errorKinds.badQueryParameter.code, field: 'state', message: 'unknown state "opened"; states are: open, pending, closed' }],
      }),
      { rate: false },
    ),
    Unauthorized: answer(
      401,
      'No token, or an unknown, revoked or expired one (also on public operations when a bad token is sent).',
      problemExample('tokenMissing', 'send an access token as "Authorization: Bearer <token>", ...'),
      { headers: ['WWW-Authenticate'] },
    ),
    Forbidden: answer(
      403,
      'The caller may see the resource but not do this (a customer deleting a ticket, an agent creating users); or the request came over plain HTTP (never redirected).',
      problemExample('forbidden', 'only admins may delete tickets'),
    ),
    TlsRequired: answer(403, 'The request came over plain HTTP (never redirected).', problemExample('tlsRequired', 'this API is served over HTTPS only; send the request to https://localhost:8443'), {
      rate: false,
    }),
    NotFound: answer(
      404,
      'No such resource, or one the caller may not see (another customer\'s ticket, an internal note for a customer: 404, never 403). Also any URL that names no resource.',
      problemExample('resourceNotFound', 'there is no ticket 7'),
    ),
    MethodNotAllowed: answer(
      405,
      'The URL does not offer this method (on a POST: the method named in X-HTTP-Method-Override). Allow lists the methods it offers.',
      problemExample('methodNotAllowed', 'DELETE is not allowed here; allowed: HEAD, GET, POST'),
      { headers: ['Allow'] },
    ),
    NotAcceptable: answer(406, 'A .xml suffix: only JSON is offered (.json is accepted on every URL).', problemExample('notAcceptable', 'XML is not offered; this API serves JSON only (drop the suffix or use .json)')),
    RequestTimeout: answer(408, 'The request headers did not arrive in time (answered before routing).', problemExample('requestTimeout', 'the request was not received in time'), {
      minimal: true,
    }),
    Conflict: answer(409, 'The request conflicts with the state of the resource (an admin deleting their own account).', problemExample('conflict', 'you cannot delete your own account')),
    Gone: answer(410, 'The resource was deleted (a deleted ticket and its messages, a deleted message).', problemExample('gone', 'ticket 7 has been deleted')),
    PreconditionFailed: answer(
      412,
      'If-Match no longer matches: the resource changed since; GET it again.',
      problemExample('preconditionFailed', 'the resource has changed since the ETag given in If-Match; GET it again and retry with the new ETag'),
    ),
    PayloadTooLarge: answer(413, 'The body is over 1 MiB.', problemExample('payloadTooLarge', 'the request body is larger than 1048576 bytes (1 MiB)')),
    UnsupportedMediaType: answer(
      415,
      'The body is not application/json (PATCH also takes application/merge-patch+json), or declares a charset other than UTF-8.',
      problemExample('unsupportedMediaType', 'this operation takes a body of type application/json; the request has Content-Type "text/plain"'),
    ),
    ValidationFailed: answer(
      422,
      `The body was refused: one entry in errors per refused field. errors[].code: see FieldError.`,
      problemExample('validationFailed', '2 fields are invalid; see errors', {
        errors: [
          { code: 42201, field: 'subject', message: 'is required' },
          { code: 42202, field: 'colour', message: 'is not a field of ticket' },
        ],
      }),
      { schema: 'ValidationError' },
    ),
    TooManyRequests: answer(
      429,
      'Over the rate limit: wait Retry-After seconds.',
      problemExample('rateLimited', 'the limit of 5000 requests per window is used up; it resets in 1200 seconds'),
      { headers: ['Retry-After'] },
    ),
    HeadersTooLarge: answer(431, 'The request header fields exceed 16 KiB (answered before routing).', problemExample('headersTooLarge', "the request's header fields exceed 16384 bytes"), {
      minimal: true,
    }),
    InternalError: answer(500, 'A defect (50001): logged with the request id; the body names nothing of it. 50002: a write the data store could not confirm durable, which may have been applied (read before sending it again). 50003: the data store stopped the request at its time limit.', problemExample('internal', 'the server failed to answer this request; it has been logged'), {
      rate: false,
    }),
    NotImplemented: answer(501, 'A method this API does not implement at all.', problemExample('notImplemented', 'BREW is not a method this API implements')),
    ServiceUnavailable: answer(
      503,
      'The data store is not reachable: retry after Retry-After seconds.',
      problemExample('storeUnavailable', 'the data store is not reachable right now; retry after the number of seconds in Retry-After'),
      { rate: false, headers: ['Retry-After'] },
    ),
  };
};

export const errorRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

export const notModified = (versions: ApiVersions): Json => ({
  description: 'Not modified: If-None-Match matched the ETag (or nothing changed since If-Modified-Since). No body.',
  headers: headerObjects(versions, [...baseHeaders, ...rateHeaders, 'ETag'], ['Last-Modified']),
});
