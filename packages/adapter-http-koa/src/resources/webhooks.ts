import { limits, webhookValues, type Webhook } from '@support/domain';
import { id, timestamp as timestampSchema } from '../openapi/schemas/fields.js';
import { timestamp } from '../representations/common.js';
import { answered, shownNames, writable, type FieldTable } from './field-table.js';

// A webhook's fields, described once (resources/field-table.ts). `url` is where deliveries go
// (contract §7.4), not the webhook's own address. The signing secret is no field of it: the
// answers that make one add it (representations/webhook.ts), and no body writes it. There is
// no PUT of a webhook: a replacement takes what a creation takes.

const { url, events, description, active } = webhookValues;

export const webhookTable = {
  id: answered((w: Webhook) => w.id, id('Server-assigned, never reused.')),
  url: writable((w: Webhook) => w.url, {
    domain: 'url',
    codec: url,
    create: 'required',
    replace: 'required',
    resettable: false,
    said: {
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
      description:
        'Where deliveries are POSTed: an https:// URL whose host resolves to public addresses only, without credentials (http:// and private or loopback addresses only when the server runs with WEBHOOK_ALLOW_PRIVATE=true). Checked at creation and at every attempt; refused: 422.',
    },
  }),
  events: writable((w: Webhook) => w.events, {
    domain: 'events',
    codec: events,
    create: 'required',
    replace: 'required',
    resettable: false,
    said: {
      description: 'The event types delivered (at least one), or ["*"] for every type (a repeated type is kept once).',
    },
  }),
  description: writable((w: Webhook) => w.description, {
    domain: 'description',
    codec: description,
    create: 'optional',
    replace: 'optional',
    resettable: true,
    said: { description: `A note for admins: at most ${limits.description.max} characters. Default "".` },
  }),
  active: writable((w: Webhook) => w.active, {
    domain: 'active',
    codec: active,
    create: 'optional',
    replace: 'optional',
    resettable: false,
    said: {
      description:
        'Whether deliveries are made. Turned false by the server when a delivery has failed through the whole retry schedule; set it true to resume from the event that failed. Default true.',
    },
  }),
  last_delivered_seq: answered((w: Webhook) => w.lastDeliveredSeq, {
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    readOnly: true,
    description:
      'Every event up to this seq was delivered or is not subscribed; the next delivery is the next subscribed event after it. A new webhook starts at the newest seq of the feed.',
  }),
  created_at: answered((w: Webhook) => timestamp(w.createdAt), timestampSchema('When the webhook was created.')),
  updated_at: answered(
    (w: Webhook) => timestamp(w.updatedAt),
    timestampSchema('When the webhook last changed (deliveries move it too).'),
  ),
} satisfies FieldTable<Webhook>;

/** The fields of a webhook's representation, in order. */
export const webhookFields = shownNames<Webhook, typeof webhookTable>(webhookTable);

/** The server's fields no webhook answer shows but those that make a secret: refused in every body. */
export const webhookSecretFields = ['secret'] as const;
