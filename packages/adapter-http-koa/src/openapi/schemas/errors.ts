import { ticketStates } from '@support/domain';
import type { OAuthErrorCode } from '@support/application';
import { errorKinds, fieldErrorCodes } from '../../errors/error-table.js';
import { ref, type Json } from '../json.js';

// Every error answer's body, with the codes of the error table (errors/error-table.ts):
// the table in the document's description and the code enums come from it.

const oauthErrorCodeSet: Readonly<Record<OAuthErrorCode, true>> = {
  invalid_request: true,
  invalid_grant: true,
  unsupported_grant_type: true,
  invalid_scope: true,
};
const oauthErrorCodes = Object.keys(oauthErrorCodeSet);

/** One row per error code: the table in the document's description and the code enum. */
export const errorCodeRows = (): readonly {
  readonly name: string;
  readonly status: number;
  readonly code: number;
  readonly message: string;
}[] =>
  Object.entries(errorKinds)
    .map(([name, k]) => ({ name, status: k.status, code: k.code, message: k.message }))
    .sort((a, b) => a.code - b.code);

export const fieldErrorCodeRows = (): readonly { readonly reason: string; readonly code: number }[] =>
  Object.entries(fieldErrorCodes)
    .map(([reason, code]) => ({ reason, code }))
    .sort((a, b) => a.code - b.code);

const errorCode = (
  rows: readonly { readonly code: number; readonly message: string; readonly name: string }[],
): Json => ({
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
        {
          const: errorKinds.badQueryParameter.code,
          title: 'query parameter refused',
          description: 'In a 400 answer: the value of the named query parameter.',
        },
        ...fieldErrorCodeRows().map((r) => ({ const: r.code, title: r.reason })),
      ],
    },
    field: { type: 'string', description: 'The body field (or query parameter) refused.' },
    message: { type: 'string', description: 'What is wrong with it.' },
    allowed: {
      type: 'array',
      items: { type: 'string', enum: [...ticketStates] },
      description:
        'On a refused state change (42208 invalid_transition): the states the caller may move the ticket to instead.',
    },
  },
};

const errorProperties = (codes: Json): Json => ({
  code: codes,
  message: { type: 'string', description: 'The stable summary of this kind of error.' },
  description: { type: 'string', description: 'What went wrong with this request and how to fix it.' },
  errors: {
    type: 'array',
    items: ref('FieldError'),
    minItems: 1,
    description: 'One entry per refused body field (422) or query parameter (400).',
  },
  oldest_seq: {
    type: 'integer',
    minimum: 1,
    description:
      'On 41002 (a change-feed cursor older than what is kept): the oldest seq still available; read again with after = oldest_seq - 1.',
  },
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
  errorKinds.oauthInvalidScope,
  errorKinds.unsupportedMediaType,
  errorKinds.payloadTooLarge,
];
const oauthErrorSchema: Json = {
  type: 'object',
  description:
    "A failure of the token endpoint: the RFC 6749 §5.2 members error and error_description beside this API's code, message and description.",
  additionalProperties: false,
  required: ['error', 'error_description', 'code', 'message', 'description'],
  properties: {
    error: { type: 'string', enum: [...oauthErrorCodes], description: 'RFC 6749 §5.2 error code.' },
    error_description: { type: 'string' },
    ...errorProperties(errorCode(errorCodeRows().filter((r) => oauthCodes.some((k) => k.code === r.code)))),
  },
};

export const errorSchemas = (): Record<string, Json> => ({
  Error: errorSchema,
  ValidationError: validationErrorSchema,
  OAuthError: oauthErrorSchema,
  FieldError: fieldError,
});
