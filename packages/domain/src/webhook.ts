import type { WebhookId } from './ids.js';
import type { EventType } from './event-type.js';

// Webhooks (contract §7.4): the events a receiver subscribed to are POSTed to it in seq order,
// at least once. A failed delivery is retried on a schedule; later events wait behind it;
// when the schedule is used up the webhook is switched off.

export interface Webhook {
  readonly id: WebhookId;
  /** Where deliveries are POSTed. */
  readonly url: string;
  /** Event types, or ["*"] for every type. */
  readonly events: readonly (EventType | '*')[];
  readonly description: string;
  readonly active: boolean;
  /** `whsec_` + base64 of 32 random bytes: the HMAC key of the signatures. */
  readonly secret: string;
  /** The secret before the last rotation, which still signs until `until` (epoch ms; contract §11). */
  readonly previousSecret?: { readonly secret: string; readonly until: number };
  /** The feed position done with: every event up to it was delivered or is not subscribed. */
  readonly lastDeliveredSeq: number;
  /** Failed attempts at the next event since the last success. */
  readonly failedAttempts: number;
  /** When the next attempt is due (after a failure); null: now. */
  readonly nextAttemptAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly version: number;
}

export interface WebhookChanges {
  readonly url: string;
  readonly events: readonly (EventType | '*')[];
  readonly description: string;
  readonly active: boolean;
}

/** A Standard Webhooks secret from 32 random bytes given as base64url (the token generator's form). */
export const webhookSecret = (randomBase64url: string): string => {
  const base64 = randomBase64url.replace(/-/g, '+').replace(/_/g, '/');
  return `whsec_${base64}${'='.repeat((4 - (base64.length % 4)) % 4)}`;
};

/** How long a rotated-out secret still signs deliveries (contract §11: 24 hours). */
export const secretOverlapMs = 24 * 60 * 60 * 1000;

/** The change a rotation makes: the new secret, and the old one kept signing for `secretOverlapMs`. */
export const rotatedSecret = (w: Webhook, secret: string, now: number): Pick<Webhook, 'secret' | 'previousSecret'> => ({
  secret,
  previousSecret: { secret: w.secret, until: now + secretOverlapMs },
});

/** The secrets a delivery at `now` is signed with: the current one, then the previous one within its overlap. */
export const signingSecrets = (w: Webhook, now: number): readonly string[] =>
  w.previousSecret !== undefined && now < w.previousSecret.until ? [w.secret, w.previousSecret.secret] : [w.secret];

/** The `webhook-id` of an event's delivery to a webhook: the same on every retry. */
export const deliveryId = (webhookId: WebhookId, seq: number): string => `msg_${String(webhookId)}_${String(seq)}`;

/** What one delivery attempt came to. */
export type DeliveryOutcome = { readonly delivered: true } | { readonly delivered: false };

/**
 * The webhook after an attempt at the event `seq`: on success the cursor moves past it; on a
 * failure the next attempt waits `retrySeconds[n-1]` after the n-th failure, and after the
 * last one the webhook is switched off (it resumes, from the same event, when reactivated).
 */
export const afterAttempt = (
  w: Webhook,
  seq: number,
  outcome: DeliveryOutcome,
  now: number,
  retrySeconds: readonly number[],
): Omit<Webhook, 'updatedAt' | 'version'> => {
  if (outcome.delivered) return { ...w, lastDeliveredSeq: seq, failedAttempts: 0, nextAttemptAt: null };
  const failed = w.failedAttempts + 1;
  const delay = retrySeconds[failed - 1];
  if (delay === undefined) return { ...w, failedAttempts: 0, nextAttemptAt: null, active: false };
  return { ...w, failedAttempts: failed, nextAttemptAt: now + delay * 1000 };
};

/** Re-sends from `after`: the cursor goes back (or forward) to it and the webhook is active again. */
export const replayFrom = (w: Webhook, after: number): Omit<Webhook, 'updatedAt' | 'version'> => ({
  ...w,
  lastDeliveredSeq: after,
  failedAttempts: 0,
  nextAttemptAt: null,
  active: true,
});
