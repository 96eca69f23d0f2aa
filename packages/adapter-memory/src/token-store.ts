import type { ConsumeResult, TokenRecord, TokenStore } from '@support/application';
import { copyTokenRecord } from './copies.js';
import { ExpiryQueue } from './expiry-queue.js';
import type { MemoryFollowUps } from './follow-ups.js';
import { storedAsIs, type Journal } from './journal.js';

/** Kept as it is (a use stores a new Held): a durable store may still be writing the old one. */
interface Held {
  readonly record: TokenRecord;
  readonly used: boolean;
}

/** Indexes of token hashes by a key (family, user); empty entries are dropped. */
class HashSets<K> {
  // Map: derived: rebuilt by the tokens restorer
  private readonly sets = new Map<K, Set<string>>();
  add(key: K, hash: string): void {
    const set = this.sets.get(key);
    if (set === undefined) this.sets.set(key, new Set([hash]));
    else set.add(hash);
  }
  remove(key: K, hash: string): void {
    const set = this.sets.get(key);
    set?.delete(hash);
    if (set?.size === 0) this.sets.delete(key);
  }
  of(key: K): string[] {
    return [...(this.sets.get(key) ?? [])];
  }
}

/**
 * Tokens by hash. A token is live while `now` is before its expiresAt; expired ones are
 * forgotten lazily: every lookup first drops those that expired by the latest `now` seen
 * (callers pass the clock, so that instant has passed for everyone).
 */
export const memoryTokenStore = (journal: Journal, load: number, followUps?: MemoryFollowUps): TokenStore => {
  const held = journal.map<string, Held>('tokens');
  const answer = journal.runner(['tokens']);
  const families = new HashSets<string>();
  const owners = new HashSets<number>();
  const expiries = new ExpiryQueue<string>(load);
  let latestNow = Number.NEGATIVE_INFINITY;

  const forget = (hash: string): void => {
    const h = held.get(hash);
    if (h === undefined) return;
    held.delete(hash);
    families.remove(h.record.familyId, hash);
    owners.remove(h.record.userId, hash);
    expiries.delete(hash);
  };
  const revokeAll = (hashesOf: () => readonly string[]): Promise<void> =>
    answer(() => {
      for (const hash of hashesOf()) forget(hash);
    });
  followUps?.on('revokeUser', (f) => {
    for (const hash of owners.of(f.userId))
      if (f.exceptFamily === undefined || held.get(hash)?.record.familyId !== f.exceptFamily) forget(hash);
  });
  const keep = (h: Held): void => {
    const { record } = h;
    held.set(record.hash, h);
    families.add(record.familyId, record.hash);
    owners.add(record.userId, record.hash);
    expiries.set(record.hash, record.expiresAt);
  };
  journal.restorer('tokens', {
    upgrade: storedAsIs<Held>,
    restore: (_, h) => {
      keep(h);
    },
  });
  /** The token if it has not expired at `now`, after forgetting what expired before. */
  const live = (hash: string, now: number): Held | undefined => {
    if (now > latestNow) {
      latestNow = now;
      for (const due of expiries.takeDue(now)) forget(due);
    }
    const h = held.get(hash);
    return h !== undefined && h.record.expiresAt > now ? h : undefined;
  };

  return {
    save: (record) =>
      answer(() => {
        if (held.has(record.hash)) return;
        keep({ record: copyTokenRecord(record), used: false });
      }),
    find: (hash, now) =>
      answer(() => {
        const h = live(hash, now);
        return h === undefined || h.used ? null : copyTokenRecord(h.record);
      }),
    consume: (hash, now) =>
      answer((): ConsumeResult => {
        const h = live(hash, now);
        if (h === undefined) return { status: 'missing' };
        const status = h.used ? 'reused' : 'consumed';
        if (!h.used) held.set(hash, { record: h.record, used: true });
        return { status, record: copyTokenRecord(h.record) };
      }),
    revoke: (hash) => revokeAll(() => [hash]),
    revokeFamily: (familyId) => revokeAll(() => families.of(familyId)),
  };
};
