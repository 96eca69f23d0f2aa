import { personalTokenSchemas } from './personal-tokens.js';
import type { Json } from '../json.js';
import { errorSchemas } from './errors.js';
import { eventSchemas } from './events.js';
import { groupSchemas } from './groups.js';
import { linkSchemas } from './links.js';
import { messageSchemas } from './messages.js';
import { attachmentSchemas } from './attachments.js';
import { oauthSchemas } from './oauth.js';
import { ticketFieldSchemas } from './ticket-fields.js';
import { ticketSchemas } from './tickets.js';
import { userSchemas } from './users.js';
import { webhookSchemas } from './webhooks.js';

// The JSON Schemas (draft 2020-12, as OpenAPI 3.1 uses them) of every body the API takes
// and answers, one file per resource. Limits, enums and error codes come from the same
// constants the code uses, so the document cannot drift from them. Response schemas are
// closed (additionalProperties: false): a field the document does not name is a defect.

export const componentSchemas = (): Record<string, Json> => ({
  ...linkSchemas(),
  ...ticketSchemas(),
  ...ticketFieldSchemas(),
  ...messageSchemas(),
  ...attachmentSchemas(),
  ...userSchemas(),
  ...personalTokenSchemas(),
  ...groupSchemas(),
  ...eventSchemas(),
  ...webhookSchemas(),
  ...oauthSchemas(),
  ...errorSchemas(),
  Envelope: {
    type: 'object',
    description:
      'With envelope=true or callback=<name>: the answer is 200 and this object carries the real status, the next page and the body (errors too). With callback it is sent as /**/name(<envelope>); (application/javascript).',
    additionalProperties: false,
    required: ['status_code', 'next_page', 'response'],
    properties: {
      status_code: { type: 'integer', minimum: 100, maximum: 599, description: 'The real HTTP status.' },
      next_page: {
        oneOf: [{ type: 'string', format: 'uri' }, { type: 'null' }],
        description:
          'The next page of a list; null on the last page and for anything that is not a list. The change feed always has one (its next read).',
      },
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
      deprecated_at: {
        type: 'string',
        format: 'date-time',
        description: 'The Deprecation header (RFC 9745) holds this instant as @<epoch seconds>.',
      },
      sunset_at: {
        type: 'string',
        format: 'date-time',
        description:
          'The Sunset header (RFC 8594) holds this instant as an HTTP date; afterwards the behaviour may be removed.',
      },
      replacement: { type: 'string', description: 'What to use instead.' },
      url: {
        type: 'string',
        format: 'uri',
        description: 'The target of the Link rel="deprecation" header of the deprecated answers.',
      },
    },
  },
  Health: {
    type: 'object',
    additionalProperties: false,
    required: ['status'],
    properties: {
      status: { type: 'string', enum: ['ok', 'ready'] },
      warnings: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description:
          "/readyz only, when there is something to know while ready: e.g. the embedded store's JavaScript heap at 80% of its limit or more (raise NODE_OPTIONS=--max-old-space-size, or move to STORE=mongo). Absent otherwise.",
      },
    },
  },
  OpenApiDocument: {
    type: 'object',
    description: 'This document (OpenAPI 3.1).',
    required: ['openapi', 'info', 'paths'],
    properties: {
      openapi: { type: 'string', pattern: '^3\\.1\\.' },
      info: { type: 'object' },
      paths: { type: 'object' },
    },
  },
});
