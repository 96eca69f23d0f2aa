import type { RateLimitStatus } from '@support/application';
import { problem } from '../errors/http-problem.js';

// Every API response tells the caller where they stand: X-Rate-Limit-Limit (requests per
// window), -Remaining, and -Reset (seconds until the window ends, not a timestamp).
// Over the limit: 429 with Retry-After.

export const rateLimitHeaders = (s: RateLimitStatus): Record<string, string> => ({
  'X-Rate-Limit-Limit': String(s.limit),
  'X-Rate-Limit-Remaining': String(s.remaining),
  'X-Rate-Limit-Reset': String(s.resetSeconds),
});

export const rateLimited = (s: RateLimitStatus) =>
  problem('rateLimited', `the limit of ${s.limit} requests per window is used up; it resets in ${s.resetSeconds} seconds`, {
    headers: { 'Retry-After': String(s.resetSeconds) },
  });
