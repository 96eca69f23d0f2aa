import type { ApiVersions } from '../conventions/api-version.js';
import { errorKinds } from '../errors/error-table.js';
import { baseHeaders, headerObjects, rateHeaders, type HeaderName } from './headers.js';
import { ref, type Json } from './json.js';
import { errorCodeRows } from './schemas/errors.js';

// The error answers of the document (and 304), each described once with the codes of the
// error table it can carry, and referred to by the operations that can answer it.

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
  const answer = (
    status: number,
    what: string,
    example: Json,
    opts: { schema?: string; headers?: readonly HeaderName[]; rate?: boolean; minimal?: boolean } = {},
  ): Json => {
    const required: HeaderName[] =
      opts.minimal === true
        ? ['X-Request-Id', 'Cache-Control']
        : [...baseHeaders, ...(opts.rate === false ? [] : rateHeaders), ...(opts.headers ?? [])];
    // A POST's error answer may be a replay of the first one with the same Idempotency-Key.
    const optional: HeaderName[] = [
      ...baseHeaders,
      ...rateHeaders,
      'Idempotent-Replayed',
      'X-OAuth-Scopes',
      'X-Accepted-OAuth-Scopes',
      ...(status === 403 ? ['WWW-Authenticate' as const] : []),
    ];
    return {
      description: `${what} Codes: ${codesOf(status)}.`,
      headers: headerObjects(versions, required, optional),
      content: { 'application/json': { schema: ref(opts.schema ?? 'Error'), example } },
    };
  };
  return {
    BadRequest: answer(
      400,
      'Malformed request: a bad query parameter (every bad one named in errors, each refusal once, at most 100 listed: description then counts the rest), a malformed or empty body (malformed JSON, bytes that are not UTF-8, a key given twice in a JSON object — I-JSON, RFC 7493 —, `__proto__` as a key, arrays and objects nested more than 64 levels deep), an unknown X-Api-Version, a bad X-HTTP-Method-Override, a token sent more than one way, a page that starts past the first 10000 items of a list (40007, naming the deepest page for its per_page), or a request Node could not parse (then only X-Request-Id and Cache-Control are sent).',
      problemExample('badQueryParameter', 'state: unknown state "opened"; states are: open, pending, closed', {
        errors: [
          {
            code: errorKinds.badQueryParameter.code,
            field: 'state',
            message: 'unknown state "opened"; states are: open, pending, closed',
          },
        ],
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
      'The caller may see the resource but not do this (a customer deleting a ticket, an agent creating users: 40301); the token\'s scopes do not cover the operation (40303, with WWW-Authenticate: Bearer realm="support", error="insufficient_scope", scope="<needed>"); a change of your own password whose current_password is wrong (40304; counted as a failed login); or the request came over plain HTTP (never redirected).',
      problemExample('forbidden', 'only admins may delete tickets'),
    ),
    TlsRequired: answer(
      403,
      'The request came over plain HTTP (never redirected).',
      problemExample('tlsRequired', 'this API is served over HTTPS only; send the request to https://localhost:8443'),
      {
        rate: false,
      },
    ),
    NotFound: answer(
      404,
      "No such resource, or one the caller may not see (another customer's ticket, an internal note for a customer: 404, never 403). Also any URL that names no resource.",
      problemExample('resourceNotFound', 'there is no ticket 7'),
    ),
    MethodNotAllowed: answer(
      405,
      'The URL does not offer this method (on a POST: the method named in X-HTTP-Method-Override). Allow lists the methods it offers.',
      problemExample('methodNotAllowed', 'DELETE is not allowed here; allowed: HEAD, GET, POST'),
      { headers: ['Allow'] },
    ),
    NotAcceptable: answer(
      406,
      'A .xml suffix: only JSON is offered (.json is accepted on every URL).',
      problemExample('notAcceptable', 'XML is not offered; this API serves JSON only (drop the suffix or use .json)'),
    ),
    RequestTimeout: answer(
      408,
      'The request did not arrive in time: its header fields within 20 s, the rest within REQUEST_TIMEOUT_S (default 60 s) after them; an upload earns one more second for every UPLOAD_MIN_BYTES_PER_S bytes (default 64 KiB) it sends, and its wait for a turn is not counted. The connection closes after this answer.',
      problemExample('requestTimeout', 'the request was not received in time'),
      {
        minimal: true,
      },
    ),
    Conflict: answer(
      409,
      'The request conflicts with the state of the resource (an admin deleting their own account), or (40902) a request with the same Idempotency-Key is still running: retry after Retry-After seconds, or (40903) the first request with that key was carried out but the service stopped before its answer was kept: it is not run again under that key (look its result up, or use a new key).',
      problemExample('conflict', 'you cannot delete your own account'),
    ),
    Gone: answer(
      410,
      'The resource was deleted (a deleted ticket and its messages, a deleted message).',
      problemExample('gone', 'ticket 7 has been deleted'),
    ),
    FeedExpired: answer(
      410,
      'The change-feed cursor is older than the oldest kept event (events are kept EVENTS_RETENTION_DAYS): oldest_seq names the oldest one still available; read again with after = oldest_seq - 1 (what came before it is lost to this consumer).',
      problemExample(
        'eventsExpired',
        'events before seq 1042 are no longer kept; the oldest available is 1042: read from after=1041',
        { oldest_seq: 1042 },
      ),
    ),
    PreconditionFailed: answer(
      412,
      'If-Match no longer matches: the resource changed since; GET it again.',
      problemExample(
        'preconditionFailed',
        'the resource has changed since the ETag given in If-Match; GET it again and retry with the new ETag',
      ),
    ),
    RangeNotSatisfiable: answer(
      416,
      'The Range starts past the end of the content; Content-Range says its size.',
      problemExample('rangeNotSatisfiable', 'the range "bytes=900-" starts past the end: the content has 512 bytes'),
      { headers: ['Content-Range'] },
    ),
    PayloadTooLarge: answer(
      413,
      'The body is over 1 MiB (41301); an upload is over UPLOAD_MAX_BYTES (41302), refused from Content-Length before a byte is read, or as soon as the bytes pass it, nothing kept.',
      problemExample('payloadTooLarge', 'the request body is larger than 1048576 bytes (1 MiB)'),
    ),
    UnsupportedMediaType: answer(
      415,
      'The body is not application/json (PATCH also takes application/merge-patch+json), or declares a charset other than UTF-8.',
      problemExample(
        'unsupportedMediaType',
        'this operation takes a body of type application/json; the request has Content-Type "text/plain"',
      ),
    ),
    ValidationFailed: answer(
      422,
      `The body was refused: one entry in errors per refused field, at most 100 (when more were refused, description says how many more are not listed). A list is refused by its length before its items are read. errors[].code: see FieldError.`,
      problemExample('validationFailed', '2 fields are invalid; see errors', {
        errors: [
          { code: 42201, field: 'subject', message: 'is required' },
          { code: 42202, field: 'colour', message: 'is not a field of ticket' },
        ],
      }),
      { schema: 'ValidationError' },
    ),
    ValidationFailedOrKeyReused: {
      ...answer(
        422,
        'The body was refused (42200: one entry in errors per refused field, at most 100, description counting the rest; errors[].code: see FieldError), or (42250) the Idempotency-Key was already used for another request (another method, path or body).',
        problemExample('validationFailed', '1 field is invalid; see errors', {
          errors: [{ code: 42201, field: 'subject', message: 'is required' }],
        }),
      ),
      content: {
        'application/json': {
          schema: { anyOf: [ref('ValidationError'), ref('Error')] },
          example: problemExample('validationFailed', '1 field is invalid; see errors', {
            errors: [{ code: 42201, field: 'subject', message: 'is required' }],
          }),
        },
      },
    },
    KeyReused: answer(
      422,
      'The Idempotency-Key was already used for another request (another method, path or body).',
      problemExample(
        'idempotencyKeyReused',
        'this Idempotency-Key was used for another request (method, path or body differ); use a new key for a new request',
      ),
    ),
    TooManyRequests: answer(
      429,
      'Over the rate limit (42901); or (42903; the password grant, and a change of your own password) too many failed logins for this account: at most 10 in any 15 minutes, from any address, answered alike whether or not the account exists. Wait Retry-After seconds.',
      problemExample('rateLimited', 'the limit of 5000 requests per window is used up; it resets in 1200 seconds'),
      { headers: ['Retry-After'] },
    ),
    HeadersTooLarge: answer(
      431,
      'The request header fields exceed 16 KiB (answered before routing).',
      problemExample('headersTooLarge', "the request's header fields exceed 16384 bytes"),
      {
        minimal: true,
      },
    ),
    InternalError: answer(
      500,
      'A defect (50001): logged with the request id; the body names nothing of it. 50002: a write the data store could not confirm durable, which may have been applied (read before sending it again). 50003: the data store stopped the request at its time limit.',
      problemExample('internal', 'the server failed to answer this request; it has been logged'),
      {
        rate: false,
      },
    ),
    NotImplemented: answer(
      501,
      'A method this API does not implement at all.',
      problemExample('notImplemented', 'BREW is not a method this API implements'),
    ),
    ServiceUnavailable: answer(
      503,
      'The data store is not reachable (50301); on /readyz, the service is still starting (50302: the description names the start-up steps left, such as the first admin); or (password checks: the password grant, a password change) too many password hashes are waiting already (50304; nothing was done); or (uploads) an upload waited REQUEST_TIMEOUT_S in all for its turn among the UPLOAD_CONCURRENCY read at once (50305; nothing was kept): retry after Retry-After seconds.',
      problemExample(
        'storeUnavailable',
        'the data store is not reachable right now; retry after the number of seconds in Retry-After',
      ),
      { rate: false, headers: ['Retry-After'] },
    ),
  };
};

export const errorRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

export const notModified = (versions: ApiVersions): Json => ({
  description: 'Not modified: If-None-Match matched the ETag (or nothing changed since If-Modified-Since). No body.',
  headers: headerObjects(versions, [...baseHeaders, ...rateHeaders, 'ETag'], ['Last-Modified']),
});
