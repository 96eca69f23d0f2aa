import type { Actor } from '../actor.js';
import type { Ports } from '../ports/index.js';
import type { StoredAnswer } from '../ports/idempotency-store.js';
export interface IdempotencyConfig {
    /** How long a key and its answer are kept (contract §7.1: 24 h). */
    readonly retentionSeconds: number;
    /**
     * How long a claim may stay unfinished before it counts as abandoned (its process died)
     * and a repeat runs the request again. Longer than any request takes.
     */
    readonly leaseSeconds: number;
}
/** What to do with a request that carries an idempotency key. */
export type IdempotencyDecision = 
/** The first request with this key: run it, then `finish` with its answer (null: not kept). */
{
    readonly kind: 'run';
    readonly finish: (answer: StoredAnswer | null) => Promise<void>;
}
/** A repeat of a finished request: answer this again, change nothing. */
 | {
    readonly kind: 'replay';
    readonly answer: StoredAnswer;
}
/** The key was used for another request (method, path or body differ). */
 | {
    readonly kind: 'mismatch';
}
/** The first request with this key is still running. */
 | {
    readonly kind: 'in_flight';
};
/** Keys are scoped to the caller: the user (all their tokens), else the client address. */
export declare const idempotencyScope: (actor: Actor | null, clientIp: string) => string;
/**
 * Which answers are kept for a repeat (contract §7.1): 2xx and 4xx, except 401 (the caller
 * was not known), 409 (a conflict of the moment) and 429 (the limit of the moment); a 5xx is
 * a failure the repeat should run again.
 */
export declare const isKeptStatus: (status: number) => boolean;
/**
 * Claims `key` for a request whose method, path and body hash to `fingerprint`. The claim is
 * atomic in the store, so of concurrent requests with one key exactly one runs.
 */
export declare const beginIdempotent: (ports: Ports, config: IdempotencyConfig, scope: string, key: string, fingerprint: string) => Promise<IdempotencyDecision>;
//# sourceMappingURL=use-case.d.ts.map