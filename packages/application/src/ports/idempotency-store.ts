/** An answer kept for an idempotency key: replayed as it is to a repeat of its request. */
export interface StoredAnswer {
  readonly status: number;
  /** The headers a replay repeats (Location, Last-Modified...), by their canonical names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body's bytes as the HTTP adapter keeps them (its JSON content, rendered again per repeat). */
  readonly body: Uint8Array;
}

/** A claim on a key: who holds it and until when. */
export interface IdempotencyClaim {
  /** A random token naming this claim; only its holder may complete or release it. */
  readonly owner: string;
  /** The SHA-256 of the request's method, path and body: a repeat must match it. */
  readonly fingerprint: string;
  readonly now: number;
  /** Until then the claim is in flight; after it, an unfinished claim was abandoned (its process died) and may be taken over. */
  readonly leaseUntil: number;
  /** The record (claim and answer) is forgotten at this instant. */
  readonly expiresAt: number;
}

export type ClaimOutcome =
  | { readonly kind: 'claimed' }
  | { readonly kind: 'in_flight'; readonly fingerprint: string }
  /** An unfinished claim past its lease whose request had written: it ran, its answer was never kept, and it must not run again. */
  | { readonly kind: 'answer_lost'; readonly fingerprint: string }
  | { readonly kind: 'completed'; readonly fingerprint: string; readonly answer: StoredAnswer };

/**
 * Idempotency keys (contract §7.1), per scope (a caller). Shared by every process using the
 * same store: a claim is atomic, so of concurrent claims of one key exactly one wins.
 */
export interface IdempotencyStore {
  /**
   * Claims `key` in `scope` unless a live record holds it: one that has not expired at
   * `claim.now` and is either completed, still within its lease, or written (see `guard`). The
   * answer says which: an unfinished claim past its lease is taken over only when it was not
   * written; a written one answers `answer_lost` until it expires.
   */
  claim(scope: string, key: string, claim: IdempotencyClaim): Promise<ClaimOutcome>;
  /**
   * Runs the claimed request's `work` so that a crash can never make it run twice: once a write
   * `work` makes is durable, the claim is durably marked written, in the same commit as that
   * first write where the store can (memory and embedded stores), else before `work` runs
   * (MongoDB: a claim then counts as written even if the crash came before any write). A claim
   * marked written is never taken over (`claim`'s `answer_lost`).
   */
  guard<T>(scope: string, key: string, owner: string, work: () => Promise<T>): Promise<T>;
  /** Keeps the answer of a claim `owner` holds; false when the claim is no longer theirs. */
  complete(scope: string, key: string, owner: string, answer: StoredAnswer): Promise<boolean>;
  /** Forgets a claim `owner` holds without an answer, so the key may be used again. */
  release(scope: string, key: string, owner: string): Promise<void>;
}
