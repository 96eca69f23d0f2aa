import type { IdSequence, RateLimitCounter } from '@support/application';
import { MongoServerError, type Collection, type OptionalUnlessRequiredId } from 'mongodb';
import type { MongoContext } from './context.js';
import { rateLimitHit, rateLimitId, sequenceIncrement } from './writes.js';

// A counter document written outside a transaction (an id sequence, a rate-limit window, the
// change feed's counter at start) is created by a plain insert, never by an upsert. MongoDB runs
// an upsert atomically and retries its own duplicate-key race (findAndModify, "Upsert with Unique
// Index"), but an engine need not: DocumentDB 0.108 runs an upsert by `_id` that matches nothing
// as INSERT ... ON CONFLICT DO UPDATE with the document it computed from nothing, so two first
// increments at once both answer 1, the later overwriting the earlier, with no error
// (docs/mongodb.md, D3). An insert of a taken `_id` fails with a duplicate key on every engine,
// and an increment of an existing document is atomic on every one: together they never repeat
// an id nor lose a count. Inside the adapter's transactions (snapshot reads: the upload counter,
// the feed's counter) two upserts of one missing counter conflict on both engines (DocumentDB:
// a serialization failure, run again by its code, D1), so those stay upserts.

const duplicateKey = (e: unknown): boolean => e instanceof MongoServerError && e.code === 11000;

/** The increment of a counter document and its first value, when it does not exist yet. */
export interface CounterWrite<D> {
  readonly filter: { readonly _id: string };
  readonly update: Readonly<Record<string, unknown>>;
  readonly first: D;
}

/**
 * One atomic increment; the counter's first value inserted when it is missing. An insert that
 * meets a duplicate key lost the race to create it: the increment then runs on the counter
 * the winner made. A counter deleted in between (a rate-limit window's TTL) is made again;
 * the third miss in a row is a defect.
 */
export const increment = async <D extends { _id: string }>(
  collection: Collection<D>,
  write: CounterWrite<D>,
  maxTimeMS: number,
): Promise<D> => {
  for (let attempt = 1; ; attempt++) {
    const d = await collection.findOneAndUpdate(write.filter as never, write.update, {
      returnDocument: 'after',
      maxTimeMS,
    });
    if (d !== null) return d as D;
    try {
      await collection.insertOne({ ...write.first } as OptionalUnlessRequiredId<D>, { maxTimeMS });
      return { ...write.first };
    } catch (e) {
      if (!duplicateKey(e) || attempt >= 3) throw e;
    }
  }
};

/** Inserts a counter unless it exists (a duplicate key: another process, an earlier start, made it). */
export const createCounter = async <D extends { _id: string }>(
  collection: Collection<D>,
  first: D,
  maxTimeMS?: number,
): Promise<void> => {
  try {
    await collection.insertOne(
      { ...first } as OptionalUnlessRequiredId<D>,
      maxTimeMS === undefined ? {} : { maxTimeMS },
    );
  } catch (e) {
    if (!duplicateKey(e)) throw e;
  }
};

/** Ids from one counter document per sequence, incremented atomically: never reused, by any process. */
export const mongoIdSequence = (ctx: MongoContext): IdSequence => ({
  next: (name) => ctx.run(async () => (await increment(ctx.counters, sequenceIncrement(name), ctx.maxTimeMS)).seq),
});

/** Fixed-window counters shared by every process; the TTL index forgets a window once it has passed. */
export const mongoRateLimitCounter = (ctx: MongoContext): RateLimitCounter => ({
  hit: (key, windowStart, windowMs) =>
    ctx.run(
      async () => (await increment(ctx.rateLimits, rateLimitHit(key, windowStart, windowMs), ctx.maxTimeMS)).count,
    ),
  count: (key, windowStart) =>
    ctx.run(async () => {
      const d = await ctx.rateLimits.findOne({ _id: rateLimitId(key, windowStart) }, { maxTimeMS: ctx.maxTimeMS });
      return d?.count ?? 0;
    }),
});
