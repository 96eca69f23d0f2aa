import { type WebhookId } from '@support/domain';
import type { Ports } from '../ports/index.js';
export interface DeliveryConfig {
    /** WEBHOOK_RETRY_S: seconds before each retry after a failure; then the webhook is switched off. */
    readonly retrySeconds: readonly number[];
    /** How long a process holds a webhook while delivering to it (longer than an attempt can take). */
    readonly leaseSeconds: number;
    /** Webhooks served per round; each gets at most one attempt in flight (bounded concurrency). */
    readonly batch: number;
    /** Attempts kept in each webhook's delivery log. */
    readonly keepLog: number;
}
/**
 * The webhooks with something to do now: active, due (no retry waiting for later) and behind
 * the head of the feed. A webhook at the head costs nothing here: no lease, no write.
 */
export declare const dueWebhooks: (ports: Ports, config: DeliveryConfig) => Promise<readonly WebhookId[]>;
/**
 * One step for one webhook (contract §7.4): its next subscribed event delivered once, or the
 * events it did not subscribe to passed over. A webhook is served by one process at a time
 * (a lease in the store), so a restart or a second process neither loses nor doubles an
 * attempt; a lease left by a dead process runs out and another takes over. Answers whether
 * it made progress (an attempt, or the cursor moved).
 */
export declare const deliverNext: (ports: Ports, config: DeliveryConfig, owner: string, id: WebhookId) => Promise<boolean>;
/** A round: one step for every webhook with something to do, side by side; answers how many made progress. */
export declare const deliverDue: (ports: Ports, config: DeliveryConfig, owner: string) => Promise<number>;
//# sourceMappingURL=deliver.d.ts.map