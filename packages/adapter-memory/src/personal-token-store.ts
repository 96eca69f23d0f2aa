import type { PersonalTokenRecord, PersonalTokenStore } from '@support/application';
import type { MemoryFollowUps } from './follow-ups.js';
import { storedAsIs, type Journal } from './journal.js';
import { pageOf } from './page-of.js';
import { SortedList } from './sorted-list.js';

/**
 * Personal access tokens by id (a journalled table of plain records, replaced, never changed in
 * place, so the embedded store keeps them across a restart), with the ids by hash and each
 * user's ids in order (indexes rebuilt on restore). A user's deletion or password reset revokes
 * them in its own port call (the revokePersonalTokens follow-up, follow-ups.ts).
 */
export const memoryPersonalTokenStore = (
  journal: Journal,
  load: number,
  followUps?: MemoryFollowUps,
): PersonalTokenStore => {
  const rows = journal.map<number, PersonalTokenRecord>('personalTokens');
  const answer = journal.runner(['personalTokens']);
  // Map: derived: rebuilt by the personalTokens restorer
  const byHash = new Map<string, number>();
  // Map: derived: rebuilt by the personalTokens restorer
  const byUser = new Map<number, SortedList<number>>();
  const copy = (r: PersonalTokenRecord): PersonalTokenRecord => ({ ...r, scopes: [...r.scopes] });
  const index = (r: PersonalTokenRecord): void => {
    byHash.set(r.hash, r.id);
    let ids = byUser.get(r.userId);
    if (ids === undefined) {
      ids = new SortedList<number>((a, b) => a - b, load);
      byUser.set(r.userId, ids);
    }
    ids.insert(r.id);
  };
  journal.restorer('personalTokens', {
    upgrade: storedAsIs<PersonalTokenRecord>,
    restore: (_, record) => {
      rows.set(record.id, record);
      index(record);
    },
  });
  const remove = (id: number): boolean => {
    const r = rows.get(id);
    if (r === undefined) return false;
    rows.delete(id);
    byHash.delete(r.hash);
    const ids = byUser.get(r.userId);
    ids?.remove(id);
    if (ids?.size === 0) byUser.delete(r.userId);
    return true;
  };
  const liveCount = (userId: number, now: number): number => {
    let live = 0;
    for (const id of byUser.get(userId)?.values() ?? []) if ((rows.get(id)?.expiresAt ?? 0) > now) live += 1;
    return live;
  };
  const revokeUserNow = (userId: number, except: number | undefined): void => {
    for (const id of [...(byUser.get(userId)?.values() ?? [])]) if (id !== except) remove(id);
  };
  followUps?.on('revokePersonalTokens', (f) => {
    revokeUserNow(f.userId, f.exceptToken);
  });
  return {
    // The count and the insert in one synchronous step: no other call runs in between.
    insert: (record, limit) =>
      answer(() => {
        if (rows.has(record.id) || byHash.has(record.hash))
          throw new Error(`personal token ${record.id} already exists; ids are never reused`);
        if (limit !== undefined && liveCount(record.userId, limit.now) >= limit.maxLive) return false;
        const stored = copy(record);
        rows.set(stored.id, stored);
        index(stored);
        return true;
      }),
    findByHash: (hash, now) =>
      answer(() => {
        const id = byHash.get(hash);
        const r = id === undefined ? undefined : rows.get(id);
        return r === undefined || r.expiresAt <= now ? null : copy(r);
      }),
    findById: (id) =>
      answer(() => {
        const r = rows.get(id);
        return r === undefined ? null : copy(r);
      }),
    list: (userId, offset, limit) =>
      answer(() => pageOf(byUser.get(userId), offset, limit, (id) => copy(rows.get(id) as PersonalTokenRecord))),
    revoke: (id) => answer(() => remove(id)),
    touch: (id, at, intervalMs) =>
      answer(() => {
        const r = rows.get(id);
        if (r === undefined || (r.lastUsedAt !== null && r.lastUsedAt > at - intervalMs)) return false;
        rows.set(id, { ...r, lastUsedAt: at });
        return true;
      }),
  };
};
