import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore, StoredAnswer } from '@support/application';
import { Binary, MongoServerError } from 'mongodb';
import type { MongoContext } from './context.js';
import type { IdempotencyDocument } from './service-documents.js';

/** Unambiguous whatever the scope and key hold. */
const recordId = (scope: string, key: string): string => JSON.stringify([scope, key]);

const toAnswer = (a: NonNullable<IdempotencyDocument['answer']>): StoredAnswer => ({
  status: a.status,
  headers: { ...a.headers },
  body: Uint8Array.from(a.body.value()),
});

const newRecord = (scope: string, key: string, c: IdempotencyClaim): IdempotencyDocument => ({
  _id: recordId(scope, key),
  owner: c.owner,
  fingerprint: c.fingerprint,
  leaseUntil: new Date(c.leaseUntil),
  expiresAt: new Date(c.expiresAt),
  answer: null,
});

const isDuplicateKey = (e: unknown): boolean => e instanceof MongoServerError && e.code === 11000;

/**
 * Idempotency records, one document per key. A claim inserts the document (the unique _id
 * lets exactly one of concurrent claims win); when one exists, it is taken over only if it is
 * dead (expired, or an unfinished claim past its lease that is not marked written: see
 * `guard`), by a conditional replace that again only one claimant can win. TTL deletion runs about once a minute, so "expired" is decided by
 * the claim's own clock, not by the document's absence.
 */
export const mongoIdempotencyStore = (ctx: MongoContext): IdempotencyStore => {
  const opts = { maxTimeMS: ctx.maxTimeMS };
  const claimOnce = async (scope: string, key: string, c: IdempotencyClaim): Promise<ClaimOutcome | 'again'> => {
    const doc = newRecord(scope, key, c);
    try {
      await ctx.idempotency.insertOne(doc);
      return { kind: 'claimed' };
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
    const now = new Date(c.now);
    const dead = {
      _id: doc._id,
      $or: [{ expiresAt: { $lte: now } }, { answer: null, written: { $ne: true }, leaseUntil: { $lte: now } }],
    };
    const taken = await ctx.idempotency.findOneAndReplace(dead, doc, { ...opts, projection: { _id: 1 } });
    if (taken !== null) return { kind: 'claimed' };
    const current = await ctx.idempotency.findOne({ _id: doc._id }, opts);
    // Deleted by the TTL monitor between the two steps: claim afresh.
    if (current === null) return 'again';
    if (current.answer !== null)
      return { kind: 'completed', fingerprint: current.fingerprint, answer: toAnswer(current.answer) };
    // Taken over or refreshed in between by another live claim.
    if (current.expiresAt.getTime() > c.now) {
      if (current.leaseUntil.getTime() > c.now) return { kind: 'in_flight', fingerprint: current.fingerprint };
      if (current.written === true) return { kind: 'answer_lost', fingerprint: current.fingerprint };
    }
    return 'again';
  };
  return {
    claim: (scope, key, c) =>
      ctx.run(async () => {
        // 'again' needs the record to change between two steps each time: a few rounds settle it.
        for (let round = 0; round < 8; round++) {
          const outcome = await claimOnce(scope, key, c);
          if (outcome !== 'again') return outcome;
        }
        throw new Error(`the idempotency record ${recordId(scope, key)} kept changing under its claim`);
      }),
    // Marked before the request runs: no transaction spans the claim and every write a request
    // makes, so "may have written" is recorded first; a crash before any write then answers
    // answer_lost too (never twice, at the price of a new key for that request).
    guard: async (scope, key, owner, work) => {
      await ctx.run(() =>
        ctx.idempotency.updateOne(
          { _id: recordId(scope, key), owner, answer: null },
          { $set: { written: true } },
          opts,
        ),
      );
      return work();
    },
    complete: (scope, key, owner, a) =>
      ctx.run(async () => {
        const r = await ctx.idempotency.updateOne(
          { _id: recordId(scope, key), owner, answer: null },
          { $set: { answer: { status: a.status, headers: { ...a.headers }, body: new Binary(a.body) } } },
          opts,
        );
        return r.matchedCount === 1;
      }),
    release: (scope, key, owner) =>
      ctx.run(async () => {
        await ctx.idempotency.deleteOne({ _id: recordId(scope, key), owner, answer: null }, opts);
      }),
  };
};
