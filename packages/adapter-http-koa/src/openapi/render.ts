import type { ApiVersions } from '../conventions/api-version.js';
import { baseHeaders, headerObjects, rateHeaders, type HeaderName } from './headers.js';
import { param } from './parameters.js';
import { errorRef } from './responses.js';
import type { Examples } from './examples.js';
import { ref, type Json } from './json.js';
import { acceptedScopes, type Needs } from '@support/application';
import type { Operation, Shape } from './operation.js';

// An Operation as the OpenAPI operation object: the parameters, headers and error answers
// that follow from how it is reached (its access and method) are added here, once.

/** What an operation needs of the token (null: it takes none). */
const needsOf = (op: Operation): Needs | null => (op.access === 'token' ? op.needs : null);

const statusOf: Readonly<Record<string, number>> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  TlsRequired: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  RequestTimeout: 408,
  Conflict: 409,
  Gone: 410,
  FeedExpired: 410,
  PreconditionFailed: 412,
  RangeNotSatisfiable: 416,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  ValidationFailed: 422,
  ValidationFailedOrKeyReused: 422,
  KeyReused: 422,
  TooManyRequests: 429,
  HeadersTooLarge: 431,
  InternalError: 500,
  ServiceUnavailable: 503,
};

const alwaysErrors = [
  'BadRequest',
  'Forbidden',
  'NotAcceptable',
  'RequestTimeout',
  'TooManyRequests',
  'HeadersTooLarge',
  'InternalError',
  'ServiceUnavailable',
];
const healthErrors = ['TlsRequired', 'RequestTimeout', 'HeadersTooLarge', 'InternalError'];
const docsErrors = [
  'Forbidden',
  'TooManyRequests',
  'RequestTimeout',
  'HeadersTooLarge',
  'InternalError',
  'ServiceUnavailable',
];

// envelope and callback are not here: they change the status, the body and the media type of
// every answer, which no operation's responses can say truthfully; the description's
// "Envelope and JSONP" section documents them (as GitHub documents its JSONP), so a typed
// client generated from the document sees each answer as it is.
const presentation = ['Pretty', 'ApiVersion', 'RequestId'];

/** POSTs that take an Idempotency-Key: every POST but the token endpoints'. */
const takesKey = (op: Operation): boolean => op.method === 'post' && op.access !== 'oauth';

/** With a key, a POST can also answer 409 (still running) and a 422 that is not a validation failure (key reused). */
const keyErrors = (op: Operation, names: readonly string[]): string[] =>
  takesKey(op)
    ? [
        ...names.filter((n) => n !== 'ValidationFailed' && n !== 'Conflict'),
        'Conflict',
        names.includes('ValidationFailed') ? 'ValidationFailedOrKeyReused' : 'KeyReused',
      ]
    : [...names];

const successHeaders = (shape: Shape): { required: HeaderName[]; optional: HeaderName[] } => {
  const base = [...baseHeaders, ...rateHeaders];
  switch (shape) {
    case 'single':
    case 'written':
      return { required: [...base, 'ETag', 'Last-Modified'], optional: [] };
    case 'created':
      return { required: [...base, 'Location', 'ETag', 'Last-Modified'], optional: ['Idempotent-Replayed'] };
    case 'list':
      return { required: [...base, 'ETag', 'Link', 'X-Total-Count'], optional: [] };
    case 'feed':
      return { required: [...base, 'ETag', 'Link'], optional: [] };
    case 'secret':
      return { required: [...base, 'Location', 'Pragma'], optional: [] };
    case 'token':
    case 'empty':
      return { required: [...base, 'Pragma'], optional: [] };
    case 'document':
      return { required: [...base, 'ETag'], optional: ['Last-Modified'] };
    case 'health':
      return { required: [...baseHeaders, 'Pragma'], optional: [] };
    case 'html':
    case 'asset':
      return { required: [...base, 'ETag'], optional: [] };
    case 'content':
      return {
        required: [...base, 'ETag', 'Accept-Ranges', 'Content-Disposition', 'Content-Security-Policy'],
        optional: [],
      };
    case 'deleted':
      return { required: [...base], optional: [] };
  }
};

const successContent = (op: Operation): Json => {
  switch (op.success.shape) {
    case 'empty':
    case 'deleted':
      return {};
    case 'content':
      return { content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
    case 'html':
      return { content: { 'text/html; charset=utf-8': { schema: { type: 'string' } } } };
    case 'asset':
      return {
        content: {
          'text/css; charset=utf-8': { schema: { type: 'string' } },
          'text/javascript; charset=utf-8': { schema: { type: 'string' } },
          'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
        },
      };
    default:
      return { content: { 'application/json': { schema: op.success.schema, example: op.success.example } } };
  }
};

/** The token endpoints answer their failures in the RFC 6749 §5.2 shape, not as the plain Error. */
const oauthFailure = (versions: ApiVersions, ex: Examples, status: number): Json => ({
  description:
    status === 400
      ? 'RFC 6749 §5.2 failure (40010 invalid_request, 40011 invalid_grant: unknown user and wrong password answer identically, 40012 unsupported_grant_type; 40002 with invalid_request for a body that cannot be read: malformed JSON, bytes that are not UTF-8, a JSON key given twice), or a bad query parameter / X-Api-Version (then the plain Error).'
      : status === 413
        ? 'The body is over 1 MiB (error: invalid_request).'
        : 'The body is neither application/x-www-form-urlencoded nor application/json (error: invalid_request).',
  headers: headerObjects(versions, [...baseHeaders, 'Pragma'], rateHeaders),
  content: {
    'application/json': {
      schema: status === 400 ? { oneOf: [ref('OAuthError'), ref('Error')] } : ref('OAuthError'),
      example:
        status === 400
          ? ex.tokenFailure
          : { ...ex.tokenFailure, error: 'invalid_request', code: 41501, message: 'Unsupported media type' },
    },
  },
});

const responses = (versions: ApiVersions, ex: Examples, op: Operation): Json => {
  const { required, optional } = successHeaders(op.success.shape);
  const isRead = op.method === 'get';
  const out: Json = {
    [String(op.success.status)]: {
      description: op.success.description,
      headers: headerObjects(
        versions,
        [...required, ...(op.success.extraHeaders ?? [])],
        [...optional, ...(op.access === 'token' ? (['X-OAuth-Scopes', 'X-Accepted-OAuth-Scopes'] as const) : [])],
      ),
      ...successContent(op),
    },
  };
  if (op.success.shape === 'content')
    out['206'] = {
      description: 'One range of the bytes (Range), with Content-Range.',
      headers: headerObjects(versions, [...required, 'Content-Range'], ['X-OAuth-Scopes', 'X-Accepted-OAuth-Scopes']),
      ...successContent(op),
    };
  if (isRead && op.access !== 'health') out['304'] = errorRef('NotModified');
  const errorNames = keyErrors(op, [
    ...(op.access === 'health' ? healthErrors : op.access === 'docs' ? docsErrors : alwaysErrors),
    ...(op.access === 'token' || op.access === 'public' ? ['Unauthorized'] : []),
    ...op.errors,
    ...(op.method === 'post' ? ['MethodNotAllowed'] : []),
  ]);
  for (const name of errorNames) {
    const status = statusOf[name];
    if (status === undefined) throw new Error(`unknown error response ${name}`);
    out[String(status)] =
      op.access === 'oauth' && (status === 400 || status === 413 || status === 415)
        ? oauthFailure(versions, ex, status)
        : errorRef(name);
  }
  return out;
};

const parameters = (op: Operation): Json[] => {
  const isRead = op.method === 'get';
  return [
    ...(op.params ?? []),
    ...(op.access === 'health' || op.access === 'docs' ? [] : presentation),
    ...(isRead && op.access !== 'health'
      ? op.access === 'docs'
        ? ['IfNoneMatch']
        : ['IfNoneMatch', 'IfModifiedSince']
      : []),
    ...(op.method === 'put' || op.method === 'patch' || op.method === 'delete' ? ['IfMatch'] : []),
    ...(takesKey(op) ? ['IdempotencyKey'] : []),
  ].map(param);
};

const binaryBody = (): Json => ({
  required: true,
  content: {
    'multipart/form-data': { schema: ref('UploadForm'), example: { file: '(the bytes of error-dialog.png)' } },
    '*/*': {
      schema: { type: 'string', contentMediaType: 'application/octet-stream' },
      example: '(the bytes of error-dialog.png)',
    },
  },
});

const requestBody = (body: NonNullable<Operation['body']>): Json =>
  body.binary === true ? binaryBody() : jsonBody(body);

const jsonBody = (body: NonNullable<Operation['body']>): Json => ({
  required: true,
  content: Object.fromEntries(
    [
      ...(body.form === true ? ['application/x-www-form-urlencoded'] : []),
      'application/json',
      ...(body.mergePatch === true ? ['application/merge-patch+json'] : []),
    ].map((type) => [
      type,
      body.examples === undefined
        ? { schema: ref(body.schema), example: body.example }
        : {
            schema: ref(body.schema),
            examples: Object.fromEntries(Object.entries(body.examples).map(([k, v]) => [k, { value: v }])),
          },
    ]),
  ),
});

/**
 * The security requirement of an operation that takes a token: any of the four ways to send
 * one, with the scopes it needs (contract §8.2; OpenAPI 3.1 allows scopes on every scheme).
 */
const security = (op: Operation): Json[] => {
  const needs = needsOf(op);
  if (needs === null) return [];
  const s = acceptedScopes(needs);
  return [{ bearer: s }, { basicToken: s }, { accessToken: s }, { oauth2: s }];
};

/** The scopes paragraph that closes the description of an operation that takes a token. */
const scopesParagraph = (op: Operation): string => {
  const needs = needsOf(op);
  if (needs === null) return '';
  if (needs === 'none') return '\n\nScopes: none needed (any token may learn whose it is).';
  if (needs === 'login')
    return '\n\nScopes: a login token only (POST /v1/oauth/token); a personal access token is 403.';
  return `\n\nScopes: ${acceptedScopes(needs).join(', ')} (a :write scope includes its :read). Outside them: 403 (40303) with WWW-Authenticate error="insufficient_scope".`;
};

const render = (versions: ApiVersions, ex: Examples, op: Operation): Json =>
  // Through JSON, so that fields left undefined (an example of none) are dropped as the served document drops them.
  JSON.parse(
    JSON.stringify({
      operationId: op.id,
      tags: [op.tag],
      summary: op.summary,
      description: op.description + scopesParagraph(op),
      ...(op.deprecated === true ? { deprecated: true } : {}),
      security: security(op),
      parameters: parameters(op),
      ...(op.body === undefined ? {} : { requestBody: requestBody(op.body) }),
      responses: responses(versions, ex, op),
      'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: op.curl }],
    }),
  ) as Json;

/** The paths object: every operation under its path and method, in the order given. */
export const pathsObject = (versions: ApiVersions, ex: Examples, ops: readonly Operation[]): Json => {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    if (item[op.method] !== undefined) throw new Error(`${op.method} ${op.path} is described twice`);
    item[op.method] = render(versions, ex, op);
  }
  return paths;
};
