import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore, StoredAnswer } from '@support/application';
import { ExpiryQueue } from './expiry-queue.js';
import type { Journal } from './journal.js';

interface Entry {
  readonly owner: string;
  readonly fingerprint: string;
  readonly leaseUntil: number;
  readonly expiresAt: number;
  readonly answer: StoredAnswer | null;
}

const copyAnswer = (a: StoredAnswer): StoredAnswer => ({ status: a.status, headers: { ...a.headers }, body: Uint8Array.from(a.body) });

/**
 * Idempotency records by scope and key. Expired records are forgotten lazily, earliest first,
 * whenever a claim shows a later instant (callers pass the clock), so memory holds only the
 * records of the retention window.
 */
export const memoryIdempotencyStore = (journal: Journal, load: number): IdempotencyStore => {
  const entries = journal.map<string, Entry>('idempotency');
  const expiries = new ExpiryQueue<string>(load);
  journal.restorer('idempotency', (k, e) => {
    entries.set(k as string, e as Entry);
    expiries.set(k as string, (e as Entry).expiresAt);
  });
  const answer = journal.runner(['idempotency']);
  let latestNow = Number.NEGATIVE_INFINITY;
  // Unambiguous whatever the scope and key hold.
  const id = (scope: string, key: string): string => JSON.stringify([scope, key]);

  const held = (k: string, owner: string): Entry | undefined => {
    const e = entries.get(k);
    return e?.owner === owner ? e : undefined;
  };

  return {
    claim: (scope, key, claim: IdempotencyClaim) =>
      answer((): ClaimOutcome => {
        if (claim.now > latestNow) {
          latestNow = claim.now;
          for (const due of expiries.takeDue(claim.now)) entries.delete(due);
        }
        const k = id(scope, key);
        const current = entries.get(k);
        if (current !== undefined && current.expiresAt > claim.now) {
          if (current.answer !== null) return { kind: 'completed', fingerprint: current.fingerprint, answer: copyAnswer(current.answer) };
          if (current.leaseUntil > claim.now) return { kind: 'in_flight', fingerprint: current.fingerprint };
        }
        entries.set(k, { owner: claim.owner, fingerprint: claim.fingerprint, leaseUntil: claim.leaseUntil, expiresAt: claim.expiresAt, answer: null });
        expiries.set(k, claim.expiresAt);
        return { kind: 'claimed' };
      }),
    complete: (scope, key, owner, stored) =>
      answer(() => {
        const k = id(scope, key);
        const e = held(k, owner);
        if (e === undefined || e.answer !== null) return false;
        entries.set(k, { ...e, answer: copyAnswer(stored) });
        return true;
      }),
    release: (scope, key, owner) =>
      answer(() => {
        const k = id(scope, key);
        const e = held(k, owner);
        if (e === undefined || e.answer !== null) return;
        entries.delete(k);
        expiries.delete(k);
      }),
  };
};
