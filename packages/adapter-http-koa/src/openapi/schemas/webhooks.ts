import { answerProperties, bodySchema } from '../../resources/field-table.js';
import { webhookTable } from '../../resources/webhooks.js';
import type { BodyProperties, WebhookReplayInput } from '../body-codecs.js';
import type { Json } from '../json.js';
import { timestamp } from './fields.js';

// A webhook as admins read it (Webhook; WebhookWithSecret once), as they write it
// (WebhookCreate, WebhookPatch, WebhookReplay), and its delivery log (Delivery).

const after = {
  type: 'integer',
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description:
    'Re-send every subscribed event with a seq above this one (0: from the oldest kept). At most the newest seq of the feed.',
};

const secret = {
  type: 'string',
  pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
  readOnly: true,
  description:
    'The signing secret: whsec_ + base64 of 32 random bytes. Shown in this answer only; keep it, or make a new one with rotate-secret.',
};

export const webhookSchemas = (): Record<string, Json> => {
  const webhookProperties = answerProperties(webhookTable);
  return {
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
    WebhookCreate: bodySchema(
      webhookTable,
      'create',
      'POST /v1/webhooks. Unknown and server-set fields are refused (422, one error per field).',
    ),
    WebhookPatch: bodySchema(
      webhookTable,
      'patch',
      'PATCH (JSON merge patch, RFC 7396): only the fields given change; null resets description to "". active: true resumes a webhook the server switched off.',
    ),
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
  };
};
