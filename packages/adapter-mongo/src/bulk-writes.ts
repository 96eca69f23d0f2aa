import { systemActor, type EventActor } from '@support/domain';
import { ObjectId, type Collection } from 'mongodb';
import type { GroupDocument, TokenDocument } from './documents.js';
import { storeFailureOf } from './errors.js';
import { ticketIndexName } from './indexes.js';
import { changeTickets, changeUsers, type ReferenceWriteContext } from './reference-writes.js';
import { refuseWithoutTransactions, type TransactionLimits } from './transactions.js';
import {
  clearGroupFilter,
  clearGroupUpdate,
  removeGroupFromUsersFilter,
  removeGroupFromUsersUpdate,
  renameCustomerFilter,
  renameCustomerUpdate,
  revokeUserFilter,
  unassignUserFilter,
  unassignUserUpdate,
} from './writes.js';

// Writes that change many documents (a customer's name on their tickets, an assignee or a
// group taken off tickets, a group off its members, a user's or a login's tokens revoked).
// The driver never retries them (only single-document writes are retryable), and a timeout,
// a failover or a crash can stop one half way: tickets would keep a renamed customer's old
// name for good. So each is
//   - idempotent: its filter matches only documents not yet changed (the old value), so
//     running it again changes only what the last run did not reach;
//   - journaled: before it runs, its intent is recorded in `repairs` under its key (a later
//     intent for the same key replaces it); it is re-run until it succeeds, and the record
//     is removed only then;
//   - repaired: whatever is left in the journal (a crash, a timeout the retries did not
//     outlast) is run again by the repair pass, at start and in the background.
// A repair re-checks that the change is still due (a user made an agent again keeps their
// new assignments, tokens issued after a revocation stay), so running it late is safe.
// The writes through a reference change tickets and users, which the change feed follows:
// they run in transactions that record an event per changed document (reference-writes.ts),
// whether run at once, again after a failure, or by the repair pass. Token revocations have
// no events (tokens are not in the feed) and stay plain deleteMany calls.

export interface BulkCollections extends ReferenceWriteContext {
  readonly groups: Collection<GroupDocument>;
  readonly tokens: Collection<TokenDocument>;
  readonly repairs: Collection<RepairDocument>;
}

/**
 * `by`: who caused the write, the actor of its events (contract §8.3), kept in the journal so
 * that a repair records it too; a journal record written before actors were kept has none and
 * repairs as the service's own change.
 */
export type BulkIntent =
  | { readonly op: 'renameCustomer'; readonly customerId: number; readonly name: string; readonly now: number; readonly by?: EventActor }
  | { readonly op: 'unassignUser'; readonly userId: number; readonly now: number; readonly by?: EventActor }
  | { readonly op: 'clearGroup'; readonly groupId: number; readonly now: number; readonly by?: EventActor }
  | { readonly op: 'removeGroup'; readonly groupId: number; readonly now: number; readonly by?: EventActor }
  | { readonly op: 'revokeUser'; readonly userId: number }
  | { readonly op: 'revokeFamily'; readonly familyId: string };

/** A journal record: the latest intent for its key, when it was recorded (server time), and a mark that tells this record from a later one. */
export interface RepairDocument {
  _id: string;
  intent: BulkIntent;
  mark: string;
  at: Date;
}

/** One journal record per operation and key: a newer intent for the same key supersedes an older one. */
const keyOf = (i: BulkIntent): string => {
  switch (i.op) {
    case 'renameCustomer':
      return `renameCustomer:${i.customerId}`;
    case 'unassignUser':
    case 'revokeUser':
      return `${i.op}:${i.userId}`;
    case 'clearGroup':
    case 'removeGroup':
      return `${i.op}:${i.groupId}`;
    case 'revokeFamily':
      return `revokeFamily:${i.familyId}`;
  }
};

/** The writes that change resources of the feed, and so run in transactions with their events. */
const transactional = (i: BulkIntent): boolean => i.op !== 'revokeUser' && i.op !== 'revokeFamily';

/** Without a time limit (the repair pass at start, on its own client), a transaction still ends within MongoDB's 60 s lifetime. */
const maintenanceLimits: TransactionLimits = { maxTimeMS: 55_000, retryWindowMs: 55_000 };

/** The write itself: idempotent, so a second run changes only what the first did not reach. */
const apply = async (c: BulkCollections, i: BulkIntent, revokedBefore: Date | null, maxTimeMS?: number): Promise<void> => {
  const options = maxTimeMS === undefined ? {} : { maxTimeMS };
  const limits = maxTimeMS === undefined ? maintenanceLimits : { maxTimeMS, retryWindowMs: maxTimeMS };
  switch (i.op) {
    case 'renameCustomer':
      await changeTickets(c, renameCustomerFilter(i.customerId, i.name), ticketIndexName.sorted('customer', '_id'), renameCustomerUpdate(i.name, i.now), limits, i.by ?? systemActor);
      return;
    case 'unassignUser':
      await changeTickets(c, unassignUserFilter(i.userId), 'tickets_assigned_user', unassignUserUpdate(i.now), limits, i.by ?? systemActor);
      return;
    case 'clearGroup':
      await changeTickets(c, clearGroupFilter(i.groupId), 'tickets_group', clearGroupUpdate(i.now), limits, i.by ?? systemActor);
      return;
    case 'removeGroup':
      await changeUsers(c, removeGroupFromUsersFilter(i.groupId), 'users_groups', removeGroupFromUsersUpdate(i.groupId, i.now), limits, i.by ?? systemActor);
      return;
    case 'revokeUser':
      await c.tokens.deleteMany(revokeUserFilter(i.userId, revokedBefore), options);
      return;
    case 'revokeFamily':
      await c.tokens.deleteMany({ familyId: i.familyId }, options);
      return;
  }
};

/** Failures worth another run at once: the database was briefly away, or the time limit stopped a long run (it resumes where it stopped). */
const worthRetrying = (e: unknown): boolean => {
  const failure = storeFailureOf(e);
  return failure === 'unavailable' || failure === 'time-limit';
};

export interface JournalOptions {
  readonly maxTimeMS: number;
  /** Runs of the write before giving up and leaving it to the repair pass. */
  readonly attempts: number;
  /** Called when the write is left to the repair pass. */
  readonly leftUndone: () => void;
}

/** Records the intent, runs the write until it succeeds (or the attempts run out), then clears the record. */
export const journaled = async (c: BulkCollections, intent: BulkIntent, o: JournalOptions): Promise<void> => {
  // A deployment that cannot record the change with its events is refused before the journal is written.
  if (transactional(intent)) refuseWithoutTransactions(c.sessions);
  const _id = keyOf(intent);
  const mark = new ObjectId().toHexString();
  await c.repairs.updateOne({ _id }, { $set: { intent, mark }, $currentDate: { at: true } }, { upsert: true, maxTimeMS: o.maxTimeMS });
  for (let attempt = 1; ; attempt++) {
    try {
      await apply(c, intent, null, o.maxTimeMS);
      break;
    } catch (e) {
      if (attempt >= o.attempts || !worthRetrying(e)) {
        o.leftUndone();
        throw e;
      }
    }
  }
  await c.repairs.deleteOne({ _id, mark }, { maxTimeMS: o.maxTimeMS });
};

/** Whether a journaled write is still due: the state it was made for has not been undone since. */
const stillDue = async (c: BulkCollections, intent: BulkIntent): Promise<boolean> => {
  switch (intent.op) {
    case 'unassignUser': {
      // Deleted, or made a customer: their tickets must not stay assigned to them.
      const user = await c.users.findOne({ _id: intent.userId }, { projection: { role: 1 } });
      return user === null || user.role === 'customer';
    }
    case 'clearGroup':
    case 'removeGroup':
      // Group ids are never reused: a deleted group stays deleted.
      return (await c.groups.findOne({ _id: intent.groupId }, { projection: { _id: 1 } })) === null;
    default:
      return true;
  }
};

/**
 * Runs every write left in the journal (oldest first) and removes each record once it is
 * done, or at once when the write is no longer due. A rename uses the customer's current
 * name when the customer still exists (the journal holds the latest intent, the user the
 * truth). Revocations remove only tokens saved before the intent was recorded. On a
 * deployment without transactions the writes of the feed's resources stay journaled until
 * they can be made with their events.
 */
export const repairPass = async (c: BulkCollections, maxTimeMS?: number): Promise<number> => {
  const pending = await c.repairs.find({}, { sort: { at: 1 }, ...(maxTimeMS === undefined ? {} : { maxTimeMS }) }).toArray();
  for (const record of pending) {
    let intent = record.intent;
    if (transactional(intent) && c.sessions.transactionsRefused() !== null) continue;
    if (intent.op === 'renameCustomer') {
      const customer = await c.users.findOne({ _id: intent.customerId }, { projection: { name: 1 } });
      if (customer !== null) intent = { ...intent, name: customer.name };
    }
    if (await stillDue(c, intent)) await apply(c, intent, record.at, maxTimeMS);
    await c.repairs.deleteOne({ _id: record._id, mark: record.mark });
  }
  return pending.length;
};
