import type { UserId } from '@support/domain';

/** Authenticated requests count per user (all their tokens together); the rest per client IP. */
export type RateSubject = { readonly kind: 'user'; readonly userId: UserId } | { readonly kind: 'ip'; readonly ip: string };

export interface RateLimitStatus {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds left in the current window (at least 1). */
  readonly resetSeconds: number;
}

export interface RateLimitConfig {
  /** Requests per window per user; per client IP it is a tenth of this, rounded up. */
  readonly limit: number;
  readonly windowSeconds: number;
}
