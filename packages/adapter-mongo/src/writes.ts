import { nameWords, type TokenDocument } from './documents.js';

// The exact filter and update documents of the adapter's writes, pure so they are unit-tested.

/** Optimistic concurrency: a replacement lands only on the version it was computed from. */
export const versionedFilter = <K>(key: K, expectedVersion: number): K & { version: number } => ({
  ...key,
  version: expectedVersion,
});

/** A customer's tickets that do not carry their new name yet: running the rename again changes only those. */
export const renameCustomerFilter = (customerId: number, name: string) => ({ customerId, customerName: { $ne: name } });

/**
 * A customer's new name on every ticket of theirs, in one update per ticket run by the
 * database: the search words become the subject/summary words plus the new name's words
 * (the same set as the domain's ticketWords), updatedAt moves forward to `now` and the
 * version goes up (the domain's renameCustomer).
 */
export const renameCustomerUpdate = (name: string, now: number) => [
  {
    $set: {
      customerName: { $literal: name },
      words: { $setUnion: ['$textWords', { $literal: nameWords(name) }] },
      updatedAt: { $max: ['$updatedAt', { $literal: new Date(now) }] },
      version: { $add: ['$version', 1] },
    },
  },
];

export const unassignUserFilter = (userId: number) => ({ assignedUserId: userId });
export const clearGroupFilter = (groupId: number) => ({ groupId });
/** The domain's unassignTicket and ungroupTicket: the reference goes, updatedAt moves forward to `now`, the version goes up. */
export const unassignUserUpdate = (now: number) => ({
  $set: { assignedUserId: null },
  $max: { updatedAt: new Date(now) },
  $inc: { version: 1 },
});
export const clearGroupUpdate = (now: number) => ({
  $set: { groupId: null },
  $max: { updatedAt: new Date(now) },
  $inc: { version: 1 },
});

export const removeGroupFromUsersFilter = (groupId: number) => ({ groupIds: groupId });
/** The domain's leaveGroup: the group goes, updatedAt moves forward to `now`, the version goes up. */
export const removeGroupFromUsersUpdate = (groupId: number, now: number) => ({
  $pull: { groupIds: groupId },
  $max: { updatedAt: new Date(now) },
  $inc: { version: 1 },
});

/**
 * The next value of a named sequence: one atomic increment of its counter document, or, on
 * first use, the insert of the counter at 1 (counters.ts: never an upsert).
 */
export const sequenceIncrement = (name: string) =>
  ({
    filter: { _id: name },
    update: { $inc: { seq: 1 } },
    first: { _id: name, seq: 1 },
  }) as const;

export const rateLimitId = (key: string, windowStart: number): string => `${windowStart}:${key}`;

/**
 * One request counted in a fixed window: an atomic increment, or, on the window's first
 * request, the insert of the counter at 1 with its expiry (counters.ts: never an upsert). The
 * counter is kept one window longer than the window lasts: the TTL monitor deletes by the
 * mongod's clock, and a counter deleted while this process still counts the window (its clock
 * a little behind) would start the window again at 1. Nothing reads a counter of a past window
 * (the `_id` carries the window), so keeping it longer costs only space.
 */
export const rateLimitHit = (key: string, windowStart: number, windowMs: number) =>
  ({
    filter: { _id: rateLimitId(key, windowStart) },
    update: { $inc: { count: 1 } },
    first: { _id: rateLimitId(key, windowStart), count: 1, expiresAt: new Date(windowStart + 2 * windowMs) },
  }) as const;

/**
 * Saving a token inserts it unless its hash is already stored. A save the driver retried
 * after a lost answer, or any second save of the same hash, keeps the first record as it
 * is (a replace could mark a used refresh token unused again).
 */
export const saveToken = (doc: TokenDocument) => {
  const { _id, ...fields } = doc;
  // savedAt (the server's clock) lets a late repair of a revocation spare tokens issued after it.
  return {
    filter: { _id },
    update: { $setOnInsert: fields, $currentDate: { savedAt: true } },
    options: { upsert: true },
  } as const;
};

/**
 * A user's tokens; with a time, only those saved at or before it (tokens stored before
 * savedAt existed count as saved before); never those of the login `exceptFamily`.
 */
export const revokeUserFilter = (userId: number, savedBy: Date | null, exceptFamily?: string) => ({
  userId,
  ...(savedBy === null ? {} : { savedAt: { $not: { $gt: savedBy } } }),
  ...(exceptFamily === undefined ? {} : { familyId: { $ne: exceptFamily } }),
});

/**
 * A user's personal access tokens; with a time, only those made at or before it (a token made
 * after a revocation stays); never `exceptToken`.
 */
export const revokePersonalTokensFilter = (userId: number, madeBy: Date | null, exceptToken?: number) => ({
  userId,
  ...(madeBy === null ? {} : { createdAt: { $not: { $gt: madeBy } } }),
  ...(exceptToken === undefined ? {} : { _id: { $ne: exceptToken } }),
});

/** A token that may still be used at `now`: not used, not expired (deleted when revoked). */
export const liveTokenFilter = (hash: string, now: number) => ({
  _id: hash,
  used: false,
  expiresAt: { $gt: new Date(now) },
});

/** The first use of a refresh token marks it; the document before the change tells first use from replay. */
export const consumeToken = (hash: string, now: number) =>
  ({
    filter: { _id: hash, expiresAt: { $gt: new Date(now) } },
    update: { $set: { used: true } },
    options: { returnDocument: 'before' },
  }) as const;

/** A ticket's messages that are not deleted, internal notes only for staff. */
export const messageListFilter = (ticketId: number, includeInternal: boolean) =>
  includeInternal ? { ticketId, deletedAt: null } : { ticketId, deletedAt: null, internal: false };

export const messageListSort = { number: 1 } as const;
