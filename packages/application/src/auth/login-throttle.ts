import { emailKey, loginThrottled, type DomainError } from '@support/domain';
import type { Ports } from '../ports/index.js';

// The login throttle (contract §11): at most 10 failed password checks per account in any 15
// minutes, from any address. A failure is a password grant refused for its password, or a
// wrong current_password when a user changes their own. An account over it answers every
// password check with 429 and Retry-After, the right password included, whether or not the
// account exists (the key is the name asked for, so an unknown one is throttled alike).
//
// Fixed windows in the shared counter (RateLimitCounter, so every process sees one count):
// a check adds the failures of this window and of the one before, and a failure is counted
// only while that sum is under the limit, so no 15 minutes ever hold more than 10 failures
// (two windows cover any 15 minutes). Only failures are counted, and only the name's digest
// is kept (a 1 MiB user name is a short key).

export const loginThrottleLimits = { maxFailures: 10, windowSeconds: 15 * 60 } as const;

const windowMs = loginThrottleLimits.windowSeconds * 1000;
const keyOf = (ports: Ports, username: string): string => `login:${ports.secrets.digest(emailKey(username))}`;

/** LoginThrottled when the account has had too many failures lately; null when a password may be checked. */
export const loginRefusal = async (ports: Ports, username: string): Promise<DomainError | null> => {
  const key = keyOf(ports, username);
  const now = ports.clock.now();
  const start = Math.floor(now / windowMs) * windowMs;
  const [current, previous] = await Promise.all([
    ports.rateLimits.count(key, start),
    ports.rateLimits.count(key, start - windowMs),
  ]);
  if (current + previous < loginThrottleLimits.maxFailures) return null;
  // Free once the failures of one whole window have left the sum: at the next window when this
  // one holds fewer than the limit, else at the one after.
  const freeAt = start + (current >= loginThrottleLimits.maxFailures ? 2 : 1) * windowMs;
  return loginThrottled(Math.max(1, Math.ceil((freeAt - now) / 1000)));
};

/** Counts one failed password check against the account. */
export const loginFailed = async (ports: Ports, username: string): Promise<void> => {
  const now = ports.clock.now();
  await ports.rateLimits.hit(keyOf(ports, username), Math.floor(now / windowMs) * windowMs, windowMs);
};
