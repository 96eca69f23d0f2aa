import { eventTypes } from '@support/domain';
import {
  limits,
  type BodyProperties,
  type WebhookCreateInput,
  type WebhookPatchInput,
  type WebhookReplayInput,
} from '../body-codecs.js';
import type { Json } from '../json.js';
import { id, nullable, text, timestamp } from './fields.js';

// A webhook as admins read it (Webhook; WebhookWithSecret once), as they write it
// (WebhookCreate, WebhookPatch, WebhookReplay), and its delivery log (Delivery).

const receiver = {
  type: 'string',
  format: 'uri',
  minLength: limits.webhookUrl.min,
  maxLength: limits.webhookUrl.max,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  description:
    'Where deliveries are POSTed: an https:// URL whose host resolves to public addresses only, without credentials (http:// and private or loopback addresses only when the server runs with WEBHOOK_ALLOW_PRIVATE=true). Checked at creation and at every attempt; refused: 422.',
};
const events = {
  type: 'array',
  items: { type: 'string', enum: ['*', ...eventTypes] },
  minItems: 1,
  maxItems: eventTypes.length + 1,
  uniqueItems: true,
  description: 'The event types delivered (at least one), or ["*"] for every type (a repeated type is kept once).',
};
const description = text(
  limits.description.min,
  limits.description.max,
  `A note for admins: at most ${limits.description.max} characters. Default "".`,
);
const active = {
  type: 'boolean',
  description:
    'Whether deliveries are made. Turned false by the server when a delivery has failed through the whole retry schedule; set it true to resume from the event that failed. Default true.',
};
const after = {
  type: 'integer',
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description:
    'Re-send every subscribed event with a seq above this one (0: from the oldest kept). At most the newest seq of the feed.',
};

const webhookProperties: Json = {
  id: id('Server-assigned, never reused.'),
  url: receiver,
  events,
  description,
  active,
  last_delivered_seq: {
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    readOnly: true,
    description:
      'Every event up to this seq was delivered or is not subscribed; the next delivery is the next subscribed event after it. A new webhook starts at the newest seq of the feed.',
  },
  created_at: timestamp('When the webhook was created.'),
  updated_at: timestamp('When the webhook last changed (deliveries move it too).'),
};

const secret = {
  type: 'string',
  pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
  readOnly: true,
  description:
    'The signing secret: whsec_ + base64 of 32 random bytes. Shown in this answer only; keep it, or make a new one with rotate-secret.',
};

export const webhookSchemas = (): Record<string, Json> => ({
  Webhook: {
    type: 'object',
    description: 'A receiver of the change feed. Its signing secret is never shown here.',
    additionalProperties: false,
    required: Object.keys(webhookProperties),
    properties: webhookProperties,
  },
  WebhookWithSecret: {
    type: 'object',
    description:
      'A webhook with its signing secret: the answer of its creation and of rotate-secret, the only times the secret is shown.',
    additionalProperties: false,
    required: [...Object.keys(webhookProperties), 'secret'],
    properties: { ...webhookProperties, secret },
  },
  WebhookCreate: {
    type: 'object',
    description: 'POST /v1/webhooks. Unknown and server-set fields are refused (422, one error per field).',
    additionalProperties: false,
    required: ['url', 'events'],
    properties: { url: receiver, events, description, active } satisfies BodyProperties<WebhookCreateInput>,
  },
  WebhookPatch: {
    type: 'object',
    description:
      'PATCH (JSON merge patch, RFC 7396): only the fields given change; null resets description to "". active: true resumes a webhook the server switched off.',
    additionalProperties: false,
    properties: {
      url: receiver,
      events,
      description: nullable(description),
      active,
    } satisfies BodyProperties<WebhookPatchInput>,
  },
  WebhookReplay: {
    type: 'object',
    description: 'POST /v1/webhooks/{webhook_id}/replay.',
    additionalProperties: false,
    required: ['after'],
    properties: { after } satisfies BodyProperties<WebhookReplayInput>,
  },
  Delivery: {
    type: 'object',
    description:
      'One delivery attempt. The log lists the newest first and keeps only the most recent attempts of each webhook.',
    additionalProperties: false,
    required: [
      'seq',
      'webhook_id',
      'attempt',
      'attempted_at',
      'status',
      'duration_ms',
      'error',
      'response',
      'next_attempt_at',
    ],
    properties: {
      seq: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The event delivered.' },
      webhook_id: {
        type: 'string',
        description: 'The webhook-id header sent: the same on every attempt at this event.',
      },
      attempt: {
        type: 'integer',
        minimum: 1,
        description: '1 for the first attempt at this event, 2 for the first retry, ...',
      },
      attempted_at: timestamp('When the attempt started.'),
      status: {
        oneOf: [{ type: 'integer', minimum: 100, maximum: 599 }, { type: 'null' }],
        description: "The receiver's status; null when it did not answer (refused, reset, timed out, blocked).",
      },
      duration_ms: { type: 'integer', minimum: 0, description: 'How long the attempt took.' },
      error: {
        oneOf: [{ type: 'string' }, { type: 'null' }],
        description:
          'Why the attempt failed (no answer within 10 s, connection reset, a status that is not 2xx...); null on success.',
      },
      response: {
        type: 'string',
        maxLength: 1024,
        description: "The start of the receiver's answer (at most 1 KiB is kept).",
      },
      next_attempt_at: {
        oneOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }],
        description:
          'When this event will be tried again; null when it was delivered or when the webhook was switched off.',
      },
    },
  },
});
