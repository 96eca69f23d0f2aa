import type { DeliveryRecord } from '@support/application';
import type { Webhook } from '@support/domain';
import { representation } from '../resources/field-table.js';
import { webhookTable } from '../resources/webhooks.js';
import { timestamp } from './common.js';

// A webhook as admins see it: the fields of its table (resources/webhooks.ts), in order; the
// signing secret is shown once, by the answers that make one.

const full = representation(webhookTable);

export const webhookRepresentation = (w: Webhook): Record<string, unknown> => full(w);

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
