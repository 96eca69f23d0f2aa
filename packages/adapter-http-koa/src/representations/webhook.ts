import type { DeliveryRecord } from '@support/application';
import type { Webhook } from '@support/domain';
import { timestamp } from './common.js';

// A webhook as admins see it. `url` is where deliveries go (contract §7.4), not the webhook's
// own address; the signing secret is shown once, by the answers that make one.

export const webhookRepresentation = (w: Webhook): Record<string, unknown> => ({
  id: w.id,
  url: w.url,
  events: w.events,
  description: w.description,
  active: w.active,
  last_delivered_seq: w.lastDeliveredSeq,
  created_at: timestamp(w.createdAt),
  updated_at: timestamp(w.updatedAt),
});

/** The answer of POST /v1/webhooks and of rotate-secret: the webhook and its secret, this once. */
export const webhookWithSecret = (w: Webhook): Record<string, unknown> => ({
  ...webhookRepresentation(w),
  secret: w.secret,
});

/** One attempt of the delivery log. */
export const deliveryRepresentation = (r: DeliveryRecord): Record<string, unknown> => ({
  seq: r.seq,
  webhook_id: r.deliveryId,
  attempt: r.attempt,
  attempted_at: timestamp(r.attemptedAt),
  status: r.status,
  duration_ms: r.durationMs,
  error: r.error,
  response: r.response,
  next_attempt_at: r.nextAttemptAt === null ? null : timestamp(r.nextAttemptAt),
});
