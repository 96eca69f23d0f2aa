import type { IdSequence, RateLimitCounter } from '@support/application';
import { MongoServerError } from 'mongodb';
import type { MongoContext } from './context.js';
import { rateLimitHit, rateLimitId, sequenceIncrement } from './writes.js';

/**
 * Two first upserts of the same counter can race to insert it; the loser fails with a
 * duplicate key on `_id` (servers since 4.2 retry this themselves). Trying once more then
 * finds the counter and increments it.
 */
const upsertOnce = async <T>(op: () => Promise<T>): Promise<T> => {
  try {
    return await op();
  } catch (e) {
    if (e instanceof MongoServerError && e.code === 11000) return op();
    throw e;
  }
};

/** Ids from one counter document per sequence, incremented atomically: never reused, by any process. */
export const mongoIdSequence = (ctx: MongoContext): IdSequence => ({
  next: (name) =>
    ctx.run(() =>
      upsertOnce(async () => {
        const { filter, update, options } = sequenceIncrement(name);
        const d = await ctx.counters.findOneAndUpdate(filter, update, { ...options, maxTimeMS: ctx.maxTimeMS });
        if (d === null) throw new Error(`the counter "${name}" was not returned by its upsert`);
        return d.seq;
      }),
    ),
});

/** Fixed-window counters shared by every process; the TTL index forgets a window once it has passed. */
export const mongoRateLimitCounter = (ctx: MongoContext): RateLimitCounter => ({
  hit: (key, windowStart, windowMs) =>
    ctx.run(() =>
      upsertOnce(async () => {
        const { filter, update, options } = rateLimitHit(key, windowStart, windowMs);
        const d = await ctx.rateLimits.findOneAndUpdate(filter, update, { ...options, maxTimeMS: ctx.maxTimeMS });
        if (d === null) throw new Error('the rate-limit counter was not returned by its upsert');
        return d.count;
      }),
    ),
  count: (key, windowStart) =>
    ctx.run(async () => {
      const d = await ctx.rateLimits.findOne({ _id: rateLimitId(key, windowStart) }, { maxTimeMS: ctx.maxTimeMS });
      return d?.count ?? 0;
    }),
});
