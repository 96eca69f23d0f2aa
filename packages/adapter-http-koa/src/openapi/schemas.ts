import { limits, priorities, roles, ticketStates } from '@support/domain';
import { groupFields, userFields } from '../representations/fields.js';
import type { OAuthErrorCode } from '@support/application';
import { errorKinds, fieldErrorCodes } from '../errors/error-table.js';

// The JSON Schemas (draft 2020-12, as OpenAPI 3.1 uses them) of every body the API takes
// and answers. Limits, enums and error codes come from the same constants the code uses,
// so the document cannot drift from them. Response schemas are closed
// (additionalProperties: false): a field the document does not name is a defect.

export type Json = Record<string, unknown>;

const oauthErrorCodeSet: Readonly<Record<OAuthErrorCode, true>> = { invalid_request: true, invalid_grant: true, unsupported_grant_type: true };
const oauthErrorCodes = Object.keys(oauthErrorCodeSet);

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

const id = (description: string): Json => ({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description, readOnly: true });
const url = (description: string): Json => ({ type: 'string', format: 'uri', description, readOnly: true });
const timestamp = (description: string): Json => ({
  type: 'string',
  format: 'date-time',
  description: `${description} ISO 8601 in UTC with milliseconds, set by the server.`,
  examples: ['2026-01-06T09:00:00.000Z'],
  readOnly: true,
});
const text = (min: number, max: number, description: string): Json => ({ type: 'string', minLength: min, maxLength: max, description });
const nullable = (schema: Json): Json => ({ oneOf: [schema, { type: 'null' }] });
const idRef = (what: string): Json => ({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `The id of a ${what}.` });

const subject = text(limits.subject.min, limits.subject.max, `The ticket's subject: ${limits.subject.min}-${limits.subject.max} characters, not blank.`);
const summary = text(limits.summary.min, limits.summary.max, `The ticket's summary: at most ${limits.summary.max} characters. Default "".`);
const state = { type: 'string', enum: [...ticketStates], description: 'open <-> pending, open/pending -> closed, closed -> open; closed -> pending is refused (422, invalid_transition). New tickets start open.' };
const priority = { type: 'string', enum: [...priorities], description: 'Sorted by rank: low < normal < high < urgent. Default normal.' };
const tags = {
  type: 'array',
  items: text(limits.tag.min, limits.tag.max, `A tag of ${limits.tag.min}-${limits.tag.max} characters.`),
  maxItems: limits.tags,
  uniqueItems: true,
  description: `At most ${limits.tags} distinct tags (a repeated tag in a request is kept once). Default [].`,
};
const messageBody = text(limits.body.min, limits.body.max, `The message text: ${limits.body.min}-${limits.body.max} characters, not blank.`);
const internal = { type: 'boolean', description: 'An internal note: seen by agents and admins only (to a customer it does not exist). Default false.' };
const userName = text(limits.name.min, limits.name.max, `${limits.name.min}-${limits.name.max} characters, not blank.`);
const email = { type: 'string', format: 'email', maxLength: 254, description: 'Unique among users, compared without regard to case.' };
const role = { type: 'string', enum: [...roles], description: 'customer: own tickets only; agent: every ticket, reads users and groups; admin: everything. Default customer.' };
const password = {
  type: 'string',
  format: 'password',
  minLength: limits.password.min,
  maxLength: limits.password.max,
  writeOnly: true,
  description: `${limits.password.min}-${limits.password.max} characters. Stored as an argon2id hash; never returned, never logged.`,
};
const groupIds = { type: 'array', items: idRef('group'), maxItems: 100, uniqueItems: true, description: "The user's groups. Default []." };
const groupName = text(limits.groupName.min, limits.groupName.max, `Unique among groups; ${limits.groupName.min}-${limits.groupName.max} characters, not blank.`);
const groupDescription = text(limits.description.min, limits.description.max, `At most ${limits.description.max} characters. Default "".`);

const userProperties: Record<(typeof userFields)[number], Json> = {
  id: id('Server-assigned, never reused.'),
  url: url('This user.'),
  name: { ...userName, description: "The user's name." },
  email,
  role,
  groups: { type: 'array', items: ref('Link'), readOnly: true, description: 'Links to the groups of this user (write them as group_ids).' },
  created_at: timestamp('When the user was created.'),
  updated_at: timestamp('When the user last changed.'),
};
const groupProperties: Record<(typeof groupFields)[number], Json> = {
  id: id('Server-assigned, never reused.'),
  url: url('This group.'),
  name: groupName,
  description: groupDescription,
  users_url: url('The members of this group: GET it for the list of users.'),
  created_at: timestamp('When the group was created.'),
  updated_at: timestamp('When the group last changed.'),
};

const ticketProperties: Json = {
  id: id('Server-assigned, never reused.'),
  url: url('This ticket.'),
  subject,
  summary,
  state,
  priority,
  customer: { ...ref('UserLink'), readOnly: true, description: 'The customer (a link; expanded with embed=customer or embed=customer.<field>). Written as customer_id.' },
  customer_name: { type: 'string', readOnly: true, description: "The customer's name, flat (server-derived); usable in fields and searched by q." },
  assigned_user: { oneOf: [ref('UserLink'), { type: 'null' }], readOnly: true, description: 'The agent or admin working on it, or null. Written as assigned_user_id.' },
  group: { oneOf: [ref('GroupLink'), { type: 'null' }], readOnly: true, description: 'The group it belongs to, or null. Written as group_id.' },
  tags,
  created_at: timestamp('When the ticket was created.'),
  updated_at: timestamp('When the ticket (or one of its messages) last changed.'),
  closed_at: { oneOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }], readOnly: true, description: 'Set by the server when the state becomes closed, cleared on reopening.' },
  messages_url: url("The ticket's messages."),
};

const ticketWritable = (withState: boolean, patch: boolean): Json => ({
  subject,
  summary: patch ? nullable(summary) : summary,
  ...(withState ? { state } : {}),
  priority: patch ? nullable(priority) : priority,
  customer_id: { ...idRef('user with the role customer'), description: 'The customer (agents and admins; a customer creating a ticket is its customer). Default: the caller.' },
  assigned_user_id: nullable({ ...idRef('user'), description: 'An agent or admin.' }),
  group_id: nullable(idRef('group')),
  tags: patch ? nullable(tags) : tags,
});

/** One row per error code: the table in the document's description and the code enum. */
export const errorCodeRows = (): readonly { readonly name: string; readonly status: number; readonly code: number; readonly message: string }[] =>
  Object.entries(errorKinds)
    .map(([name, k]) => ({ name, status: k.status, code: k.code, message: k.message }))
    .sort((a, b) => a.code - b.code);

export const fieldErrorCodeRows = (): readonly { readonly reason: string; readonly code: number }[] =>
  Object.entries(fieldErrorCodes)
    .map(([reason, code]) => ({ reason, code }))
    .sort((a, b) => a.code - b.code);

const errorCode = (rows: readonly { readonly code: number; readonly message: string; readonly name: string }[]): Json => ({
  type: 'integer',
  description: 'HTTP status x 100 + a number. The full table is in the description of this document.',
  oneOf: rows.map((r) => ({ const: r.code, title: r.message, description: r.name })),
});

const fieldError: Json = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'field', 'message'],
  properties: {
    code: {
      type: 'integer',
      description: 'Why the field (or query parameter) was refused.',
      oneOf: [
        { const: errorKinds.badQueryParameter.code, title: 'query parameter refused', description: 'In a 400 answer: the value of the named query parameter.' },
        ...fieldErrorCodeRows().map((r) => ({ const: r.code, title: r.reason })),
      ],
    },
    field: { type: 'string', description: 'The body field (or query parameter) refused.' },
    message: { type: 'string', description: 'What is wrong with it.' },
  },
};

const errorProperties = (codes: Json): Json => ({
  code: codes,
  message: { type: 'string', description: 'The stable summary of this kind of error.' },
  description: { type: 'string', description: 'What went wrong with this request and how to fix it.' },
  errors: { type: 'array', items: ref('FieldError'), minItems: 1, description: 'One entry per refused body field (422) or query parameter (400).' },
});

const errorSchema: Json = {
  type: 'object',
  description: 'Every 4xx and 5xx answer. Never a stack trace.',
  additionalProperties: false,
  required: ['code', 'message', 'description'],
  properties: errorProperties(errorCode(errorCodeRows())),
};

const validationErrorSchema: Json = {
  type: 'object',
  description: 'A 422: the body was refused, one entry in errors per refused field (all of them at once).',
  additionalProperties: false,
  required: ['code', 'message', 'description', 'errors'],
  properties: errorProperties({ type: 'integer', const: errorKinds.validationFailed.code }),
};

const oauthCodes = [
  errorKinds.malformedBody,
  errorKinds.oauthInvalidRequest,
  errorKinds.oauthInvalidGrant,
  errorKinds.oauthUnsupportedGrantType,
  errorKinds.unsupportedMediaType,
  errorKinds.payloadTooLarge,
];
const oauthErrorSchema: Json = {
  type: 'object',
  description: 'A failure of the token endpoint: the RFC 6749 §5.2 members error and error_description beside this API\'s code, message and description.',
  additionalProperties: false,
  required: ['error', 'error_description', 'code', 'message', 'description'],
  properties: {
    error: { type: 'string', enum: [...oauthErrorCodes], description: 'RFC 6749 §5.2 error code.' },
    error_description: { type: 'string' },
    ...errorProperties(errorCode(errorCodeRows().filter((r) => oauthCodes.some((k) => k.code === r.code)))),
  },
};

const userLinkProperties = { ...userProperties, id: id('The user.'), url: url('The user.') };

export const componentSchemas = (): Record<string, Json> => ({
  Link: {
    type: 'object',
    description: 'A related resource that exists on its own.',
    additionalProperties: false,
    required: ['id', 'url'],
    properties: { id: id('The related resource.'), url: url('The related resource.') },
  },
  UserLink: {
    type: 'object',
    description:
      'A user related to a ticket: the link {id, url}; with embed=<relation> the whole user, with embed=<relation>.<field> the link plus that field. A customer sees other users only by id, url and name.',
    additionalProperties: false,
    required: ['id', 'url'],
    properties: userLinkProperties,
  },
  GroupLink: {
    type: 'object',
    description: 'A group related to a ticket: the link {id, url}; with embed=group the whole group, with embed=group.<field> the link plus that field.',
    additionalProperties: false,
    required: ['id', 'url'],
    properties: { ...groupProperties, id: id('The group.'), url: url('The group.') },
  },
  Ticket: {
    type: 'object',
    description: 'A support ticket, as POST, PUT, PATCH and DELETE answer it (every field).',
    additionalProperties: false,
    required: Object.keys(ticketProperties),
    properties: ticketProperties,
  },
  TicketSelection: {
    type: 'object',
    description:
      'A ticket as a read answers it: every field of Ticket, or with fields=<list> only the fields named there (in the order of Ticket). embed expands customer, assigned_user and group.',
    additionalProperties: false,
    properties: ticketProperties,
  },
  TicketCreate: {
    type: 'object',
    description: 'POST /v1/tickets. Unknown and server-set fields are refused (422, one error per field); state is not accepted: new tickets start open.',
    additionalProperties: false,
    required: ['subject'],
    properties: ticketWritable(false, false),
  },
  TicketReplace: {
    type: 'object',
    description: 'PUT: every writable field; omitted optional ones return to their defaults (the customer is kept).',
    additionalProperties: false,
    required: ['subject'],
    properties: ticketWritable(true, false),
  },
  TicketPatch: {
    type: 'object',
    description: 'PATCH (JSON merge patch, RFC 7396): only the fields given change; null resets an optional field to its default. A customer may change subject, summary and state only.',
    additionalProperties: false,
    properties: ticketWritable(true, true),
  },
  Message: {
    type: 'object',
    description: 'A message of a ticket. Its id is its number inside the ticket (1, 2, 3...).',
    additionalProperties: false,
    required: ['id', 'url', 'body', 'author', 'internal', 'ticket', 'created_at', 'updated_at'],
    properties: {
      id: id('The number of the message inside its ticket.'),
      url: url('This message.'),
      body: messageBody,
      author: { ...ref('Link'), readOnly: true, description: 'The user who wrote it (the caller at creation).' },
      internal,
      ticket: { ...ref('Link'), readOnly: true, description: 'The ticket it belongs to.' },
      created_at: timestamp('When the message was added.'),
      updated_at: timestamp('When the message last changed.'),
    },
  },
  MessageWrite: {
    type: 'object',
    description: 'POST and PUT of a message. PUT resets an omitted internal to false.',
    additionalProperties: false,
    required: ['body'],
    properties: { body: messageBody, internal },
  },
  MessagePatch: {
    type: 'object',
    description: 'PATCH of a message (JSON merge patch); null resets internal to false.',
    additionalProperties: false,
    properties: { body: messageBody, internal: nullable(internal) },
  },
  User: {
    type: 'object',
    description: 'A user. password is write-only: it never appears in an answer.',
    additionalProperties: false,
    required: [...userFields],
    properties: { ...userProperties, password },
  },
  UserCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'email', 'password'],
    properties: { name: userName, email, password, role, group_ids: groupIds },
  },
  UserReplace: {
    type: 'object',
    description: 'PUT: password may be omitted (it is kept); omitted role and group_ids return to their defaults.',
    additionalProperties: false,
    required: ['name', 'email'],
    properties: { name: userName, email, password, role, group_ids: groupIds },
  },
  UserPatch: {
    type: 'object',
    description: 'PATCH (JSON merge patch). A customer may change their own name and password only.',
    additionalProperties: false,
    properties: { name: userName, email, password, role, group_ids: nullable(groupIds) },
  },
  Group: {
    type: 'object',
    additionalProperties: false,
    required: [...groupFields],
    properties: groupProperties,
  },
  GroupWrite: {
    type: 'object',
    description: 'POST and PUT of a group; PUT resets an omitted description to "".',
    additionalProperties: false,
    required: ['name'],
    properties: { name: groupName, description: groupDescription },
  },
  GroupPatch: {
    type: 'object',
    additionalProperties: false,
    properties: { name: groupName, description: nullable(groupDescription) },
  },
  TokenRequest: {
    description: 'RFC 6749 §4.3 (password) or §6 (refresh_token) grant; form-encoded or JSON. Each parameter at most once.',
    oneOf: [
      {
        type: 'object',
        title: 'password grant',
        required: ['grant_type', 'username', 'password'],
        properties: {
          grant_type: { const: 'password' },
          username: { type: 'string', description: "The user's e-mail address." },
          password: { type: 'string', format: 'password', writeOnly: true },
        },
      },
      {
        type: 'object',
        title: 'refresh_token grant',
        required: ['grant_type', 'refresh_token'],
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
    required: ['access_token', 'token_type', 'expires_in', 'refresh_token'],
    properties: {
      access_token: { type: 'string', pattern: '^[A-Za-z0-9_-]{43,}$' },
      token_type: { type: 'string', const: 'bearer' },
      expires_in: { type: 'integer', minimum: 1, description: 'Seconds the access token is valid (TOKEN_TTL_S).' },
      refresh_token: { type: 'string', pattern: '^[A-Za-z0-9_-]{43,}$' },
    },
  },
  RevokeRequest: {
    type: 'object',
    description: 'RFC 7009: an access or refresh token.',
    required: ['token'],
    properties: { token: { type: 'string', minLength: 1 }, token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] } },
  },
  Error: errorSchema,
  ValidationError: validationErrorSchema,
  OAuthError: oauthErrorSchema,
  FieldError: fieldError,
  Envelope: {
    type: 'object',
    description:
      'With envelope=true or callback=<name>: the answer is 200 and this object carries the real status, the next page and the body (errors too). With callback it is sent as /**/name(<envelope>); (application/javascript).',
    additionalProperties: false,
    required: ['status_code', 'next_page', 'response'],
    properties: {
      status_code: { type: 'integer', minimum: 100, maximum: 599, description: 'The real HTTP status.' },
      next_page: { oneOf: [{ type: 'string', format: 'uri' }, { type: 'null' }], description: 'The next page of a list; null on the last page and for anything that is not a list.' },
      response: { description: 'The body the answer would have had without the envelope (null for none).' },
    },
  },
  Deprecation: {
    type: 'object',
    description: 'One entry of the published deprecation schedule.',
    additionalProperties: false,
    required: ['id', 'description', 'deprecated_at', 'sunset_at', 'replacement', 'url'],
    properties: {
      id: { type: 'string', description: 'Also the fragment of its url.' },
      description: { type: 'string' },
      deprecated_at: { type: 'string', format: 'date-time', description: 'The Deprecation header (RFC 9745) holds this instant as @<epoch seconds>.' },
      sunset_at: { type: 'string', format: 'date-time', description: 'The Sunset header (RFC 8594) holds this instant as an HTTP date; afterwards the behaviour may be removed.' },
      replacement: { type: 'string', description: 'What to use instead.' },
      url: { type: 'string', format: 'uri', description: 'The target of the Link rel="deprecation" header of the deprecated answers.' },
    },
  },
  Health: {
    type: 'object',
    additionalProperties: false,
    required: ['status'],
    properties: { status: { type: 'string', enum: ['ok', 'ready'] } },
  },
  OpenApiDocument: {
    type: 'object',
    description: 'This document (OpenAPI 3.1).',
    required: ['openapi', 'info', 'paths'],
    properties: { openapi: { type: 'string', pattern: '^3\\.1\\.' }, info: { type: 'object' }, paths: { type: 'object' } },
  },
});
