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
  /**
   * The first request with this key: run it inside `guard` (so that its first durable write marks
   * the claim written: a crash can never make it run twice), then `finish` with its answer (null:
   * not kept).
   */
  | {
      readonly kind: 'run';
      readonly guard: <T>(work: () => Promise<T>) => Promise<T>;
      readonly finish: (answer: StoredAnswer | null) => Promise<void>;
    }
  /** A repeat of a finished request: answer this again, change nothing. */
  | { readonly kind: 'replay'; readonly answer: StoredAnswer }
  /** The key was used for another request (method, path or body differ). */
  | { readonly kind: 'mismatch' }
  /** The first request with this key is still running. */
  | { readonly kind: 'in_flight' }
  /** The first request with this key wrote, but its answer was never kept (its process died): it is not run again. */
  | { readonly kind: 'answer_lost' };

/** Keys are scoped to the caller: the user (all their tokens), else the client address. */
export const idempotencyScope = (actor: Actor | null, clientIp: string): string =>
  actor === null ? `ip:${clientIp}` : `user:${actor.user.id}`;

/**
 * Which answers are kept for a repeat (contract §7.1): 2xx and 4xx, except 401 (the caller
 * was not known), 409 (a conflict of the moment) and 429 (the limit of the moment); a 5xx is
 * a failure the repeat should run again.
 */
export const isKeptStatus = (status: number): boolean =>
  status >= 200 &&
  status < 500 &&
  !(status >= 300 && status < 400) &&
  status !== 401 &&
  status !== 409 &&
  status !== 429;

/**
 * Claims `key` for a request whose method, path and body hash to `fingerprint`. The claim is
 * atomic in the store, so of concurrent requests with one key exactly one runs.
 */
export const beginIdempotentRequest = async (
  ports: Ports,
  config: IdempotencyConfig,
  scope: string,
  key: string,
  fingerprint: string,
): Promise<IdempotencyDecision> => {
  const now = ports.clock.now();
  const owner = ports.secrets.generate();
  const outcome = await ports.idempotency.claim(scope, key, {
    owner,
    fingerprint,
    now,
    leaseUntil: now + config.leaseSeconds * 1000,
    expiresAt: now + config.retentionSeconds * 1000,
  });
  if (outcome.kind !== 'claimed') {
    if (outcome.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (outcome.kind === 'completed') return { kind: 'replay', answer: outcome.answer };
    return { kind: outcome.kind };
  }
  return {
    kind: 'run',
    guard: (work) => ports.idempotency.guard(scope, key, owner, work),
    finish: async (answer) => {
      if (answer !== null && isKeptStatus(answer.status)) await ports.idempotency.complete(scope, key, owner, answer);
      else await ports.idempotency.release(scope, key, owner);
    },
  };
};
