import type { ApiVersions } from '../conventions/api-version.js';
import { baseHeaders, errorRef, headerObjects, param, rateHeaders, type HeaderName } from './common.js';
import type { Examples } from './examples.js';
import { ref, type Json } from './schemas.js';

// Every path and method the router serves (routes/*.ts) plus /healthz, /readyz and /docs.
// The server's HTTP tests check every answer they get against these operations.

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/**
 * token: needs an access token; public: none needed (a bad one is still refused); oauth: the token endpoints;
 * health: load balancers; docs: the HTML page, answered before tokens and presentation parameters are looked at.
 */
type Access = 'token' | 'public' | 'oauth' | 'health' | 'docs';
type Shape = 'single' | 'list' | 'created' | 'written' | 'token' | 'empty' | 'document' | 'health' | 'html' | 'asset';

interface Operation {
  readonly path: string;
  readonly method: Method;
  readonly id: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly access: Access;
  readonly params?: readonly string[];
  readonly body?: { readonly schema: string; readonly example: Json; readonly mergePatch?: boolean; readonly form?: boolean; readonly examples?: Record<string, Json> };
  readonly success: { readonly status: 200 | 201; readonly shape: Shape; readonly description: string; readonly schema?: Json; readonly example?: unknown; readonly extraHeaders?: readonly HeaderName[] };
  readonly errors: readonly string[];
  readonly deprecated?: boolean;
  readonly curl: string;
}

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
  PreconditionFailed: 412,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  ValidationFailed: 422,
  TooManyRequests: 429,
  HeadersTooLarge: 431,
  InternalError: 500,
  ServiceUnavailable: 503,
};

const alwaysErrors = ['BadRequest', 'Forbidden', 'NotAcceptable', 'RequestTimeout', 'TooManyRequests', 'HeadersTooLarge', 'InternalError', 'ServiceUnavailable'];
const healthErrors = ['TlsRequired', 'RequestTimeout', 'HeadersTooLarge', 'InternalError'];
const docsErrors = ['Forbidden', 'TooManyRequests', 'RequestTimeout', 'HeadersTooLarge', 'InternalError', 'ServiceUnavailable'];
const writeErrors = ['PayloadTooLarge', 'UnsupportedMediaType', 'ValidationFailed'];

const presentation = ['Pretty', 'Envelope', 'Callback', 'ApiVersion', 'RequestId'];

const successHeaders = (shape: Shape): { required: HeaderName[]; optional: HeaderName[] } => {
  const base = [...baseHeaders, ...rateHeaders];
  switch (shape) {
    case 'single':
    case 'written':
      return { required: [...base, 'ETag', 'Last-Modified'], optional: [] };
    case 'created':
      return { required: [...base, 'Location', 'ETag', 'Last-Modified'], optional: [] };
    case 'list':
      return { required: [...base, 'ETag', 'Link', 'X-Total-Count'], optional: [] };
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
  }
};

const build = (versions: ApiVersions, ex: Examples, op: Operation): Json => {
  const { required, optional } = successHeaders(op.success.shape);
  const isRead = op.method === 'get';
  const content: Json =
    op.success.shape === 'empty'
      ? {}
      : op.success.shape === 'html'
        ? { content: { 'text/html; charset=utf-8': { schema: { type: 'string' } } } }
        : op.success.shape === 'asset'
          ? { content: { 'text/css; charset=utf-8': { schema: { type: 'string' } }, 'text/javascript; charset=utf-8': { schema: { type: 'string' } }, 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } } }
        : {
            content: {
              'application/json': { schema: op.success.schema, example: op.success.example },
              ...(isRead && op.access !== 'health' && op.access !== 'docs'
                ? {
                    'application/javascript': {
                      schema: { type: 'string', description: 'With callback=<name>: /**/<name>(<Envelope>); — see the callback parameter.' },
                      example: '/**/handle({"status_code": 200, "next_page": null, "response": ...});',
                    },
                  }
                : {}),
            },
          };
  const responses: Json = {
    [String(op.success.status)]: {
      description: op.success.description,
      headers: headerObjects(versions, [...required, ...(op.success.extraHeaders ?? [])], optional),
      ...content,
    },
  };
  if (isRead && op.access !== 'health') responses['304'] = errorRef('NotModified');
  const errorNames = [
    ...(op.access === 'health' ? healthErrors : op.access === 'docs' ? docsErrors : alwaysErrors),
    ...(op.access === 'token' || op.access === 'public' ? ['Unauthorized'] : []),
    ...op.errors,
    ...(op.method === 'post' ? ['MethodNotAllowed'] : []),
  ];
  for (const name of errorNames) {
    const status = statusOf[name];
    if (status === undefined) throw new Error(`unknown error response ${name}`);
    if (op.access === 'oauth' && (status === 400 || status === 413 || status === 415)) {
      responses[String(status)] = {
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
            example: status === 400 ? ex.tokenFailure : { ...ex.tokenFailure, error: 'invalid_request', code: 41501, message: 'Unsupported media type' },
          },
        },
      };
      continue;
    }
    responses[String(status)] = errorRef(name);
  }
  const security: unknown[] | undefined = op.access === 'token' ? undefined : [];
  const params = [
    ...(op.params ?? []),
    ...(op.access === 'health' || op.access === 'docs' ? [] : presentation),
    ...(op.access === 'token' || op.access === 'public' ? ['AccessToken'] : []),
    ...(isRead && op.access !== 'health' ? (op.access === 'docs' ? ['IfNoneMatch'] : ['IfNoneMatch', 'IfModifiedSince']) : []),
    ...(op.method === 'put' || op.method === 'patch' || op.method === 'delete' ? ['IfMatch'] : []),
  ].map(param);
  const requestBody =
    op.body === undefined
      ? undefined
      : {
          required: true,
          content: Object.fromEntries(
            [
              ...(op.body.form === true ? ['application/x-www-form-urlencoded'] : []),
              'application/json',
              ...(op.body.mergePatch === true ? ['application/merge-patch+json'] : []),
            ].map((type) => [
              type,
              op.body?.examples === undefined
                ? { schema: ref(op.body?.schema ?? ''), example: op.body?.example }
                : { schema: ref(op.body.schema), examples: Object.fromEntries(Object.entries(op.body.examples).map(([k, v]) => [k, { value: v }])) },
            ]),
          ),
        };
  return JSON.parse(
    JSON.stringify({
      operationId: op.id,
      tags: [op.tag],
      summary: op.summary,
      description: op.description,
      ...(op.deprecated === true ? { deprecated: true } : {}),
      ...(security === undefined ? {} : { security }),
      parameters: params,
      ...(requestBody === undefined ? {} : { requestBody }),
      responses,
      'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: op.curl }],
    }),
  ) as Json;
};

const roles = (s: string): string => `\n\nRoles: ${s}`;

export const operations = (origin: string, ex: Examples, schedule: readonly unknown[]): readonly Operation[] => {
  const auth = '-H "Authorization: Bearer $TOKEN"';
  const json = "-H 'Content-Type: application/json'";
  const curl = (method: string, path: string, body?: Json, extra = ''): string =>
    `curl ${method === 'GET' ? '' : `-X ${method} `}${auth} ${extra}${body === undefined ? '' : `${json} -d '${JSON.stringify(body)}' `}'${origin}${path}'`.replace(/ {2,}/g, ' ');
  const listParams = ['State', 'Sort', 'Q', 'Fields', 'Embed', 'Page', 'PerPage'];
  const idErrors = ['NotFound'];
  const ticketErrors = ['NotFound', 'Gone'];
  const writable = (shape: 'written' | 'created', schema: string, example: unknown): Operation['success'] => ({
    status: shape === 'created' ? 201 : 200,
    shape,
    description: shape === 'created' ? 'Created: the new resource, with its URL in Location.' : 'The resource as it now is.',
    schema: ref(schema),
    example,
  });
  const readTicket = (path: string, deprecated: boolean): Operation => ({
    path,
    method: 'get',
    id: deprecated ? 'getTicketSingularAlias' : 'getTicket',
    tag: 'Tickets',
    summary: deprecated ? 'Read a ticket (deprecated singular alias)' : 'Read a ticket',
    description: deprecated
      ? 'The spelling of the embed example in the original specification. Same answer as GET /v1/tickets/{ticket_id}, plus Deprecation, Sunset and Link rel="deprecation" headers; see GET /v1/deprecations for its schedule.'
      : `One ticket. fields and embed as in the list.${roles("customer: own tickets only (another's is 404); agent, admin: any.")}`,
    access: 'token',
    ...(deprecated ? { deprecated: true } : {}),
    params: ['TicketId', 'Fields', 'Embed'],
    success: {
      status: 200,
      shape: 'single',
      description: 'The ticket (only the fields asked for with fields).',
      schema: ref('TicketSelection'),
      example: ex.ticketEmbedded,
      ...(deprecated ? { extraHeaders: ['Deprecation', 'Sunset', 'Link'] as const } : {}),
    },
    errors: ticketErrors,
    curl: curl('GET', `${path.replace('{ticket_id}', '7')}?embed=customer.name`),
  });
  const listOf = (schema: string): Json => ({ type: 'array', items: ref(schema) });
  const userOps = (path: string, me: boolean): Operation[] => {
    const p = me ? [] : ['UserId'];
    const target = me ? 'the caller' : 'a user';
    const concrete = path.replace('{user_id}', '12');
    return [
      {
        path,
        method: 'get',
        id: me ? 'getMe' : 'getUser',
        tag: 'Users',
        summary: `Read ${target}`,
        description: `${me ? 'The user the token belongs to.' : 'One user.'}${roles(me ? 'any.' : 'customer: self only (anyone else is 404); agent, admin: any.')}`,
        access: 'token',
        params: p,
        success: { status: 200, shape: 'single', description: 'The user.', schema: ref('User'), example: ex.user() },
        errors: me ? [] : idErrors,
        curl: curl('GET', concrete),
      },
      {
        path,
        method: 'put',
        id: me ? 'replaceMe' : 'replaceUser',
        tag: 'Users',
        summary: `Replace ${target}`,
        description: `Every writable field; password may be omitted (it is kept).${roles('customer, agent: self, name and password only (e-mail and role as they are); admin: any.')}`,
        access: 'token',
        params: p,
        body: { schema: 'UserReplace', example: ex.userReplace },
        success: writable('written', 'User', ex.user({ name: 'Ada King' })),
        errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
        curl: curl('PUT', concrete, ex.userReplace),
      },
      {
        path,
        method: 'patch',
        id: me ? 'patchMe' : 'patchUser',
        tag: 'Users',
        summary: `Change fields of ${target}`,
        description: `JSON merge patch (RFC 7396): only the fields given change.${roles('customer, agent: own name and password; admin: any.')}`,
        access: 'token',
        params: p,
        body: { schema: 'UserPatch', example: ex.userPatch, mergePatch: true },
        success: writable('written', 'User', ex.user({ name: 'Ada King' })),
        errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
        curl: curl('PATCH', concrete, ex.userPatch),
      },
      {
        path,
        method: 'delete',
        id: me ? 'deleteMe' : 'deleteUser',
        tag: 'Users',
        summary: `Delete ${target}`,
        description: `Answers the deleted user. An admin cannot delete their own account (409).${roles('admin.')}`,
        access: 'token',
        params: p,
        success: writable('written', 'User', ex.user()),
        errors: [...idErrors, 'Conflict', 'PreconditionFailed'],
        curl: curl('DELETE', concrete),
      },
    ];
  };

  return [
    // ------------------------------------------------------------ OAuth
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
      body: { schema: 'TokenRequest', example: ex.tokenPassword, form: true, examples: { password: ex.tokenPassword, refresh_token: ex.tokenRefresh } },
      success: { status: 200, shape: 'token', description: 'A new access token and refresh token.', schema: ref('TokenResponse'), example: ex.tokenResponse },
      errors: ['PayloadTooLarge', 'UnsupportedMediaType'],
      curl: `curl -d grant_type=password -d username=ada@example.com -d 'password=correct horse battery staple' '${origin}/v1/oauth/token'`,
    },
    {
      path: '/v1/oauth/revoke',
      method: 'post',
      id: 'revokeToken',
      tag: 'Authentication',
      summary: 'Revoke a token',
      description: 'RFC 7009: revokes an access or refresh token. 200 with an empty body whether or not the token was known.',
      access: 'oauth',
      body: { schema: 'RevokeRequest', example: ex.revoke, form: true },
      success: { status: 200, shape: 'empty', description: 'Revoked (or unknown). No body.' },
      errors: ['PayloadTooLarge', 'UnsupportedMediaType'],
      curl: `curl -d token=$TOKEN '${origin}/v1/oauth/revoke'`,
    },
    // ------------------------------------------------------------ Tickets
    {
      path: '/v1/tickets',
      method: 'get',
      id: 'listTickets',
      tag: 'Tickets',
      summary: 'List tickets',
      description: `A bare JSON array, paged (Link, X-Total-Count). Without state, tickets of every state; deleted tickets never.${roles('customer: own tickets only; agent, admin: all.')}`,
      access: 'token',
      params: listParams,
      success: { status: 200, shape: 'list', description: 'One page of tickets.', schema: listOf('TicketSelection'), example: [ex.ticket()] },
      errors: [],
      curl: curl('GET', '/v1/tickets?state=open&sort=-priority,created_at&per_page=50'),
    },
    {
      path: '/v1/tickets/recently_closed',
      method: 'get',
      id: 'listRecentlyClosedTickets',
      tag: 'Tickets',
      summary: 'List recently closed tickets',
      description: `The saved search: closed tickets whose closed_at is within the last 7 days; default sort -closed_at. Same as GET /v1/tickets?q=recently_closed.${roles('as the list.')}`,
      access: 'token',
      params: listParams,
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of recently closed tickets.',
        schema: listOf('TicketSelection'),
        example: [ex.ticket({ state: 'closed', closed_at: '2026-01-06T10:00:00.000Z' })],
      },
      errors: [],
      curl: curl('GET', '/v1/tickets/recently_closed'),
    },
    {
      path: '/v1/tickets',
      method: 'post',
      id: 'createTicket',
      tag: 'Tickets',
      summary: 'Create a ticket',
      description: `New tickets start open. A customer creating a ticket is its customer; agents and admins give customer_id.${roles('any.')}`,
      access: 'token',
      body: { schema: 'TicketCreate', example: ex.ticketCreate },
      success: writable('created', 'Ticket', ex.ticket()),
      errors: writeErrors,
      curl: curl('POST', '/v1/tickets', ex.ticketCreate),
    },
    readTicket('/v1/tickets/{ticket_id}', false),
    readTicket('/v1/ticket/{ticket_id}', true),
    {
      path: '/v1/tickets/{ticket_id}',
      method: 'put',
      id: 'replaceTicket',
      tag: 'Tickets',
      summary: 'Replace a ticket',
      description: `Every writable field: required ones must be present, omitted optional ones return to their defaults (the customer is kept).${roles('customer: own tickets, subject, summary and state only; agent, admin: any.')}`,
      access: 'token',
      params: ['TicketId'],
      body: { schema: 'TicketReplace', example: ex.ticketReplace },
      success: writable('written', 'Ticket', ex.ticket({ state: 'pending', priority: 'high', tags: ['hardware'] })),
      errors: [...ticketErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PUT', '/v1/tickets/7', ex.ticketReplace),
    },
    {
      path: '/v1/tickets/{ticket_id}',
      method: 'patch',
      id: 'patchTicket',
      tag: 'Tickets',
      summary: 'Change fields of a ticket',
      description: `JSON merge patch (RFC 7396): only the fields given change; null resets to the default.${roles('customer: own tickets, subject, summary and state (close or reopen); agent, admin: any.')}`,
      access: 'token',
      params: ['TicketId'],
      body: { schema: 'TicketPatch', example: ex.ticketPatch, mergePatch: true },
      success: writable('written', 'Ticket', ex.ticket({ state: 'closed', assigned_user: null, closed_at: '2026-01-06T10:00:00.000Z' })),
      errors: [...ticketErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PATCH', '/v1/tickets/7', ex.ticketPatch),
    },
    {
      path: '/v1/tickets/{ticket_id}',
      method: 'delete',
      id: 'deleteTicket',
      tag: 'Tickets',
      summary: 'Delete a ticket',
      description: `Soft delete: afterwards the ticket and its messages answer 410 and leave every list. Answers the ticket as it was.${roles('admin.')}`,
      access: 'token',
      params: ['TicketId'],
      success: writable('written', 'Ticket', ex.ticket()),
      errors: [...ticketErrors, 'PreconditionFailed'],
      curl: curl('DELETE', '/v1/tickets/7'),
    },
    // ------------------------------------------------------------ Messages
    {
      path: '/v1/tickets/{ticket_id}/messages',
      method: 'get',
      id: 'listMessages',
      tag: 'Messages',
      summary: "List a ticket's messages",
      description: `The messages' data (they exist only inside the ticket) as a bare array, oldest first, paged like tickets.${roles('customer: own tickets, never internal notes; agent, admin: all.')}`,
      access: 'token',
      params: ['TicketId', 'Page', 'PerPage'],
      success: { status: 200, shape: 'list', description: 'One page of messages.', schema: listOf('Message'), example: [ex.message()] },
      errors: ticketErrors,
      curl: curl('GET', '/v1/tickets/7/messages'),
    },
    {
      path: '/v1/tickets/{ticket_id}/messages',
      method: 'post',
      id: 'createMessage',
      tag: 'Messages',
      summary: 'Add a message',
      description: `The author is the caller. Updates the ticket's updated_at.${roles('customer: own tickets, no internal notes; agent, admin: any.')}`,
      access: 'token',
      params: ['TicketId'],
      body: { schema: 'MessageWrite', example: ex.messageCreate },
      success: writable('created', 'Message', ex.message()),
      errors: [...ticketErrors, ...writeErrors],
      curl: curl('POST', '/v1/tickets/7/messages', ex.messageCreate),
    },
    {
      path: '/v1/tickets/{ticket_id}/messages/{message_id}',
      method: 'get',
      id: 'getMessage',
      tag: 'Messages',
      summary: 'Read a message',
      description: `One message. To a customer an internal note does not exist (404).${roles('as the list.')}`,
      access: 'token',
      params: ['TicketId', 'MessageId'],
      success: { status: 200, shape: 'single', description: 'The message.', schema: ref('Message'), example: ex.message() },
      errors: ticketErrors,
      curl: curl('GET', '/v1/tickets/7/messages/1'),
    },
    {
      path: '/v1/tickets/{ticket_id}/messages/{message_id}',
      method: 'put',
      id: 'replaceMessage',
      tag: 'Messages',
      summary: 'Replace a message',
      description: `body required; an omitted internal returns to false.${roles('customer: own messages; agent, admin: any.')}`,
      access: 'token',
      params: ['TicketId', 'MessageId'],
      body: { schema: 'MessageWrite', example: ex.messageCreate },
      success: writable('written', 'Message', ex.message()),
      errors: [...ticketErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PUT', '/v1/tickets/7/messages/1', ex.messageCreate),
    },
    {
      path: '/v1/tickets/{ticket_id}/messages/{message_id}',
      method: 'patch',
      id: 'patchMessage',
      tag: 'Messages',
      summary: 'Change fields of a message',
      description: `JSON merge patch (RFC 7396).${roles('customer: own messages; agent, admin: any.')}`,
      access: 'token',
      params: ['TicketId', 'MessageId'],
      body: { schema: 'MessagePatch', example: ex.messagePatch, mergePatch: true },
      success: writable('written', 'Message', ex.message({ internal: true })),
      errors: [...ticketErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PATCH', '/v1/tickets/7/messages/1', ex.messagePatch),
    },
    {
      path: '/v1/tickets/{ticket_id}/messages/{message_id}',
      method: 'delete',
      id: 'deleteMessage',
      tag: 'Messages',
      summary: 'Delete a message',
      description: `Afterwards the message answers 410. Answers the message as it was.${roles('customer: own messages; agent, admin: any.')}`,
      access: 'token',
      params: ['TicketId', 'MessageId'],
      success: writable('written', 'Message', ex.message()),
      errors: [...ticketErrors, 'PreconditionFailed'],
      curl: curl('DELETE', '/v1/tickets/7/messages/1'),
    },
    // ------------------------------------------------------------ Users
    {
      path: '/v1/users',
      method: 'get',
      id: 'listUsers',
      tag: 'Users',
      summary: 'List users',
      description: `A bare JSON array, paged.${roles('agent, admin.')}`,
      access: 'token',
      params: ['Page', 'PerPage'],
      success: { status: 200, shape: 'list', description: 'One page of users.', schema: listOf('User'), example: [ex.user()] },
      errors: [],
      curl: curl('GET', '/v1/users?per_page=100'),
    },
    {
      path: '/v1/users',
      method: 'post',
      id: 'createUser',
      tag: 'Users',
      summary: 'Create a user',
      description: `e-mail addresses are unique (case-insensitively).${roles('admin.')}`,
      access: 'token',
      body: { schema: 'UserCreate', example: ex.userCreate },
      success: writable('created', 'User', ex.user()),
      errors: writeErrors,
      curl: curl('POST', '/v1/users', ex.userCreate),
    },
    ...userOps('/v1/users/me', true),
    ...userOps('/v1/users/{user_id}', false),
    // ------------------------------------------------------------ Groups
    {
      path: '/v1/groups',
      method: 'get',
      id: 'listGroups',
      tag: 'Groups',
      summary: 'List groups',
      description: `A bare JSON array, paged.${roles('agent, admin.')}`,
      access: 'token',
      params: ['Page', 'PerPage'],
      success: { status: 200, shape: 'list', description: 'One page of groups.', schema: listOf('Group'), example: [ex.group()] },
      errors: [],
      curl: curl('GET', '/v1/groups'),
    },
    {
      path: '/v1/groups',
      method: 'post',
      id: 'createGroup',
      tag: 'Groups',
      summary: 'Create a group',
      description: `Group names are unique.${roles('admin.')}`,
      access: 'token',
      body: { schema: 'GroupWrite', example: ex.groupCreate },
      success: writable('created', 'Group', ex.group()),
      errors: writeErrors,
      curl: curl('POST', '/v1/groups', ex.groupCreate),
    },
    {
      path: '/v1/groups/{group_id}',
      method: 'get',
      id: 'getGroup',
      tag: 'Groups',
      summary: 'Read a group',
      description: `One group.${roles('agent, admin.')}`,
      access: 'token',
      params: ['GroupId'],
      success: { status: 200, shape: 'single', description: 'The group.', schema: ref('Group'), example: ex.group() },
      errors: idErrors,
      curl: curl('GET', '/v1/groups/2'),
    },
    {
      path: '/v1/groups/{group_id}/users',
      method: 'get',
      id: 'listGroupUsers',
      tag: 'Groups',
      summary: "List a group's members",
      description: `The users of the group, a bare array, paged.${roles('agent, admin.')}`,
      access: 'token',
      params: ['GroupId', 'Page', 'PerPage'],
      success: { status: 200, shape: 'list', description: 'One page of users.', schema: listOf('User'), example: [ex.user({ role: 'agent', groups: [{ id: 2, url: `${origin}/v1/groups/2` }] })] },
      errors: idErrors,
      curl: curl('GET', '/v1/groups/2/users'),
    },
    {
      path: '/v1/groups/{group_id}',
      method: 'put',
      id: 'replaceGroup',
      tag: 'Groups',
      summary: 'Replace a group',
      description: `name required; an omitted description returns to "".${roles('admin.')}`,
      access: 'token',
      params: ['GroupId'],
      body: { schema: 'GroupWrite', example: ex.groupCreate },
      success: writable('written', 'Group', ex.group()),
      errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PUT', '/v1/groups/2', ex.groupCreate),
    },
    {
      path: '/v1/groups/{group_id}',
      method: 'patch',
      id: 'patchGroup',
      tag: 'Groups',
      summary: 'Change fields of a group',
      description: `JSON merge patch (RFC 7396).${roles('admin.')}`,
      access: 'token',
      params: ['GroupId'],
      body: { schema: 'GroupPatch', example: ex.groupPatch, mergePatch: true },
      success: writable('written', 'Group', ex.group({ description: '' })),
      errors: [...idErrors, 'PreconditionFailed', ...writeErrors],
      curl: curl('PATCH', '/v1/groups/2', ex.groupPatch),
    },
    {
      path: '/v1/groups/{group_id}',
      method: 'delete',
      id: 'deleteGroup',
      tag: 'Groups',
      summary: 'Delete a group',
      description: `Answers the deleted group.${roles('admin.')}`,
      access: 'token',
      params: ['GroupId'],
      success: writable('written', 'Group', ex.group()),
      errors: [...idErrors, 'PreconditionFailed'],
      curl: curl('DELETE', '/v1/groups/2'),
    },
    // ------------------------------------------------------------ Documentation
    {
      path: '/v1/deprecations',
      method: 'get',
      id: 'listDeprecations',
      tag: 'Documentation',
      summary: 'The deprecation schedule',
      description: 'Every deprecated behaviour: when it was deprecated (the Deprecation header), when it may stop working (the Sunset header) and what to use instead. Public.',
      access: 'public',
      success: { status: 200, shape: 'document', description: 'The schedule.', schema: listOf('Deprecation'), example: schedule },
      errors: [],
      curl: `curl '${origin}/v1/deprecations'`,
    },
    {
      path: '/v1/openapi.json',
      method: 'get',
      id: 'getOpenApiDocument',
      tag: 'Documentation',
      summary: 'This OpenAPI document',
      description: 'The complete OpenAPI 3.1 document of this API. Public.',
      access: 'public',
      success: { status: 200, shape: 'document', description: 'The document.', schema: ref('OpenApiDocument'), example: { openapi: '3.1.0', info: { title: 'Support Ticket API', version: '1.1' }, paths: {} } },
      errors: [],
      curl: `curl '${origin}/v1/openapi.json'`,
    },
    {
      path: '/docs',
      method: 'get',
      id: 'getDocs',
      tag: 'Documentation',
      summary: 'Human-readable documentation',
      description:
        'An HTML page rendered from this document (Swagger UI, served by this service; nothing is loaded from another origin). Public and unversioned: no token is looked at, and pretty, envelope and callback do not apply. Rate limited per client IP. /docs/ works too.',
      access: 'docs',
      success: { status: 200, shape: 'html', description: 'The page.' },
      errors: [],
      curl: `curl '${origin}/docs'`,
    },
    {
      path: '/docs/assets/{file}',
      method: 'get',
      id: 'getDocsAsset',
      tag: 'Documentation',
      summary: 'A file of the documentation page',
      description: 'The stylesheet, scripts and icons the page uses (a fixed list; anything else is 404).',
      access: 'docs',
      params: ['DocsFile'],
      success: { status: 200, shape: 'asset', description: 'The file.' },
      errors: ['NotFound'],
      curl: `curl '${origin}/docs/assets/swagger-ui.css'`,
    },
    // ------------------------------------------------------------ Health
    {
      path: '/healthz',
      method: 'get',
      id: 'healthz',
      tag: 'Health',
      summary: 'Liveness',
      description: 'The process answers. Unauthenticated, unversioned, not rate limited (no X-Rate-Limit-* headers). HEAD works too; other methods: 405.',
      access: 'health',
      success: { status: 200, shape: 'health', description: 'Alive.', schema: ref('Health'), example: { status: 'ok' } },
      errors: [],
      curl: `curl '${origin}/healthz'`,
    },
    {
      path: '/readyz',
      method: 'get',
      id: 'readyz',
      tag: 'Health',
      summary: 'Readiness',
      description: 'The store answers too; else 503. Unauthenticated, unversioned, not rate limited.',
      access: 'health',
      success: { status: 200, shape: 'health', description: 'Ready.', schema: ref('Health'), example: { status: 'ready' } },
      errors: ['ServiceUnavailable'],
      curl: `curl '${origin}/readyz'`,
    },
  ];
};

/** The paths object: every operation under its path and method, in the order above. */
export const pathsObject = (versions: ApiVersions, ex: Examples, ops: readonly Operation[]): Json => {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    if (item[op.method] !== undefined) throw new Error(`${op.method} ${op.path} is described twice`);
    item[op.method] = build(versions, ex, op);
  }
  return paths;
};
