import { PasswordHasherBusyError, type PasswordHasher } from '@support/application';
import argon2 from 'argon2';

/**
 * At most `limit` calls at once; the rest wait their turn in arrival order, at most
 * `maxWaiting` of them: one more is refused at once with PasswordHasherBusyError (contract §11:
 * a login flood gets 503 and Retry-After, never an unbounded wait).
 */
export const semaphore = (limit: number, maxWaiting = Number.POSITIVE_INFINITY) => {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <A>(work: () => Promise<A>): Promise<A> => {
    if (running >= limit) {
      if (waiting.length >= maxWaiting) throw new PasswordHasherBusyError();
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else running += 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running -= 1;
      else next();
    }
  };
};

export interface Argon2Settings {
  /** KiB of memory per hash (OWASP: 19 MiB with t=2 at least). */
  readonly memoryCost: number;
  readonly timeCost: number;
  /** Hashes computed at once; a login flood queues instead of taking every libuv thread. */
  readonly concurrency: number;
  /** Hashes waiting their turn at most (~40 ms each on one core): one more is refused, 503. */
  readonly maxWaiting: number;
}

export const defaultArgon2: Argon2Settings = { memoryCost: 19_456, timeCost: 2, concurrency: 2, maxWaiting: 64 };

/** argon2id behind the PasswordHasher port, with bounded concurrency. */
export const argon2Hasher = (settings: Argon2Settings = defaultArgon2): PasswordHasher => {
  const limited = semaphore(settings.concurrency, settings.maxWaiting);
  return {
    hash: (password) =>
      limited(() =>
        argon2.hash(password, {
          type: argon2.argon2id,
          memoryCost: settings.memoryCost,
          timeCost: settings.timeCost,
          parallelism: 1,
        }),
      ),
    verify: (hash, password) =>
      limited(async () => {
        try {
          return await argon2.verify(hash, password);
        } catch {
          return false;
        }
      }),
  };
};
