import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore, StoredAnswer } from '@support/application';
import { ExpiryQueue } from './expiry-queue.js';
import { storedAsIs, type Journal } from './journal.js';

/** A key's claim: what every claim decides on, held in memory. Its kept answer (the big part) is on the `answers` shelf. */
interface Entry {
  readonly owner: string;
  readonly fingerprint: string;
  readonly leaseUntil: number;
  readonly expiresAt: number;
  readonly answered: boolean;
  /** A write of the claim's request is durable (IdempotencyStore.guard); absent in records kept before 2026-11-28: false. */
  readonly written?: boolean;
}

const copyAnswer = (a: StoredAnswer): StoredAnswer => ({
  status: a.status,
  headers: { ...a.headers },
  body: Uint8Array.from(a.body),
});

/**
 * Idempotency records by scope and key. Expired records are forgotten lazily, earliest first,
 * whenever a claim shows a later instant (callers pass the clock), so only the records of the
 * retention window are kept. The claims are held in memory; the kept answers are shelved (on a
 * durable store, read from it when a repeat comes, not held in memory).
 */
export const memoryIdempotencyStore = (journal: Journal, load: number, claimsAbandoned = false): IdempotencyStore => {
  const entries = journal.map<string, Entry>('idempotency');
  const answers = journal.shelf<StoredAnswer>('answers');
  const expiries = new ExpiryQueue<string>(load);
  journal.restorer('idempotency', {
    upgrade: storedAsIs<Entry>,
    restore: (k, e) => {
      // Restored at a start: the claim's process is gone, its lease with it (Durability.claimsAbandoned).
      entries.set(k as string, claimsAbandoned && !e.answered ? { ...e, leaseUntil: 0 } : e);
      expiries.set(k as string, e.expiresAt);
    },
  });
  const answer = journal.runner(['idempotency', 'answers']);
  let latestNow = Number.NEGATIVE_INFINITY;
  // Unambiguous whatever the scope and key hold.
  const id = (scope: string, key: string): string => JSON.stringify([scope, key]);

  // A request's first durable write marks its claim, in that write's own commit (claim-guard.ts).
  journal.claims.register((k, owner) => {
    const e = entries.get(k);
    if (e !== undefined && e.owner === owner && !e.answered && e.written !== true)
      entries.set(k, { ...e, written: true });
  });

  const held = (k: string, owner: string): Entry | undefined => {
    const e = entries.get(k);
    return e?.owner === owner ? e : undefined;
  };
  const forget = (k: string): void => {
    if (entries.get(k)?.answered === true) answers.delete(k);
    entries.delete(k);
  };
  const kept = (k: string): StoredAnswer => {
    const a = answers.get(k);
    if (a === undefined) throw new Error(`the kept answer of idempotency record ${k} is missing`);
    return copyAnswer(a);
  };

  return {
    claim: (scope, key, claim: IdempotencyClaim) =>
      answer((): ClaimOutcome => {
        if (claim.now > latestNow) {
          latestNow = claim.now;
          for (const due of expiries.takeDue(claim.now)) forget(due);
        }
        const k = id(scope, key);
        const current = entries.get(k);
        if (current !== undefined && current.expiresAt > claim.now) {
          if (current.answered) return { kind: 'completed', fingerprint: current.fingerprint, answer: kept(k) };
          if (current.leaseUntil > claim.now) return { kind: 'in_flight', fingerprint: current.fingerprint };
          if (current.written === true) return { kind: 'answer_lost', fingerprint: current.fingerprint };
        }
        if (current?.answered === true) answers.delete(k);
        entries.set(k, {
          owner: claim.owner,
          fingerprint: claim.fingerprint,
          leaseUntil: claim.leaseUntil,
          expiresAt: claim.expiresAt,
          answered: false,
        });
        expiries.set(k, claim.expiresAt);
        return { kind: 'claimed' };
      }),
    guard: (scope, key, owner, work) => journal.guarded(id(scope, key), owner, work),
    complete: (scope, key, owner, stored) =>
      answer(() => {
        const k = id(scope, key);
        const e = held(k, owner);
        if (e === undefined || e.answered) return false;
        entries.set(k, { ...e, answered: true });
        answers.set(k, copyAnswer(stored));
        return true;
      }),
    release: (scope, key, owner) =>
      answer(() => {
        const k = id(scope, key);
        const e = held(k, owner);
        if (e === undefined || e.answered) return;
        entries.delete(k);
        expiries.delete(k);
      }),
  };
};
