import type { Scope, UserId } from '@support/domain';
import type { Page } from './ticket-repository.js';

/** A personal access token as the store keeps it (contract §8.1): its SHA-256, never the token. Plain data. */
export interface PersonalTokenRecord {
  /** From the IdSequence ('personal-token'), never reused. */
  readonly id: number;
  readonly userId: UserId;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly hash: string;
  /** Epoch ms. */
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly lastUsedAt: number | null;
}

/**
 * Personal access tokens. Revoking removes the record, so a revoked token is refused by the
 * next lookup in every process (there is no cache in front of this port).
 */
/** How many tokens a user may hold that have not expired at `now` (contract §11). */
export interface LiveTokenLimit {
  readonly maxLive: number;
  readonly now: number;
}

export interface PersonalTokenStore {
  /**
   * Stores a new token; with `limit`, only while its user holds fewer than `maxLive` tokens that
   * have not expired at `now` (false: nothing stored). Decided by the store so that concurrent
   * inserts, in any process, never leave more than maxLive: a token counts against the limit
   * only tokens with a lower id (ids grow), and a store that cannot count and insert in one
   * step inserts, counts, and takes its token back when over.
   */
  insert(record: PersonalTokenRecord, limit?: LiveTokenLimit): Promise<boolean>;
  /** The token with this hash, unless it expired at `now` (or was revoked); one indexed lookup. */
  findByHash(hash: string, now: number): Promise<PersonalTokenRecord | null>;
  /** A token by id, expired or not; null once revoked. */
  findById(id: number): Promise<PersonalTokenRecord | null>;
  /** One page of a user's tokens (expired ones too), oldest first, and how many they have. */
  list(userId: UserId, offset: number, limit: number): Promise<Page<PersonalTokenRecord>>;
  /** Removes a token; false when there was none. */
  revoke(id: number): Promise<boolean>;
  /**
   * Sets lastUsedAt to `at` when it is null or older than `at - intervalMs`; whether it wrote.
   * Decided by the store in one step, so several processes write it at most once an interval.
   */
  touch(id: number, at: number, intervalMs: number): Promise<boolean>;
}
