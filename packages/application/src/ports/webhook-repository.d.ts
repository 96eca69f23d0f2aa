import type { Webhook, WebhookId } from '@support/domain';
import type { Page } from './ticket-repository.js';
/** One delivery attempt, as the delivery log keeps it. */
export interface DeliveryRecord {
    readonly webhookId: WebhookId;
    readonly seq: number;
    /** The `webhook-id` header: the same on every attempt at this event. */
    readonly deliveryId: string;
    /** 1 for the first attempt at this event, 2 for the first retry... */
    readonly attempt: number;
    readonly attemptedAt: number;
    /** The receiver's status; null when it did not answer. */
    readonly status: number | null;
    readonly durationMs: number;
    readonly error: string | null;
    /** The start of the receiver's answer (at most 1 KiB). */
    readonly response: string;
    /** When the event will be tried again; null when delivered or when the webhook was switched off. */
    readonly nextAttemptAt: number | null;
}
export type WebhookWriteResult = 'ok' | 'version_mismatch';
export interface WebhookRepository {
    insert(webhook: Webhook): Promise<void>;
    findById(id: WebhookId): Promise<Webhook | null>;
    /** Webhooks by id ascending. */
    list(offset: number, limit: number): Promise<Page<Webhook>>;
    update(webhook: Webhook, expectedVersion: number): Promise<WebhookWriteResult>;
    /** Deletes the webhook and its delivery log. */
    delete(id: WebhookId): Promise<boolean>;
    /** Active webhooks whose next attempt is due at `now` (none pending counts as due), by id, at most `limit`. */
    due(now: number, limit: number): Promise<readonly Webhook[]>;
    /**
     * Takes the delivery lease of a webhook for `owner` until `until`, when it is free, expired at
     * `now` or already `owner`'s: true when `owner` holds it now. Atomic: of concurrent claimants
     * one wins, so one process delivers to a webhook at a time.
     */
    lease(id: WebhookId, owner: string, now: number, until: number): Promise<boolean>;
    /** Gives a lease back (no effect when `owner` does not hold it). */
    release(id: WebhookId, owner: string): Promise<void>;
    /** Keeps an attempt in the webhook's log; only the newest `keep` attempts of each webhook are kept. */
    recordDelivery(record: DeliveryRecord, keep: number): Promise<void>;
    /** The newest attempts first, at most `limit`. */
    deliveries(id: WebhookId, limit: number): Promise<readonly DeliveryRecord[]>;
}
//# sourceMappingURL=webhook-repository.d.ts.map