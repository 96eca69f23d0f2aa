import type { UserId } from '@support/domain';
import type { Ports } from './ports/index.js';

/** Authenticated requests count per user (all their tokens together); the rest per client IP. */
export type RateSubject =
  { readonly kind: 'user'; readonly userId: UserId } | { readonly kind: 'ip'; readonly ip: string };

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

/**
 * Counts one request of `subject`. Who is counted is the caller's decision (the HTTP
 * adapter's pipeline/rate-limit.ts); how much each subject may do is decided here.
 * Fixed windows: every subject's window starts at the same instants, so the count is one
 * shared counter in the store, whichever process answers.
 */
export const consumeRateLimit = async (
  ports: Ports,
  config: RateLimitConfig,
  subject: RateSubject,
): Promise<RateLimitStatus> => {
  const windowMs = config.windowSeconds * 1000;
  const now = ports.clock.now();
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const key = subject.kind === 'user' ? `user:${subject.userId}` : `ip:${subject.ip}`;
  const limit = subject.kind === 'user' ? config.limit : Math.ceil(config.limit / 10);
  const count = await ports.rateLimits.hit(key, windowStart, windowMs);
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
  };
};

/** The rate-limit use cases. */
export const rateLimitUseCases = (
  ports: Ports,
  config: RateLimitConfig,
): { consume(subject: RateSubject): Promise<RateLimitStatus> } => ({
  consume: (subject) => consumeRateLimit(ports, config, subject),
});
