import { systemActor } from '@support/domain';
import { ObjectId, type ClientSession, type Collection } from 'mongodb';
import type { GroupDocument, TicketDocument, TokenDocument, UserDocument } from './documents.js';
import type { PersonalTokenDocument } from './service-documents.js';
import { keyOf, transactional, type BulkIntent, type RepairDocument } from './bulk-intents.js';
import { storeFailureOf } from './errors.js';

export { followUpIntent, type BulkIntent, type RepairDocument } from './bulk-intents.js';
import { ticketIndexName } from './indexes.js';
import {
  changeTickets,
  changeUsers,
  fixedPlan,
  type BatchPlanner,
  type ReferenceWriteContext,
} from './reference-writes.js';
import { refuseWithoutTransactions, type TransactionLimits } from './transactions.js';
import {
  clearGroupFilter,
  clearGroupUpdate,
  removeGroupFromUsersFilter,
  removeGroupFromUsersUpdate,
  renameCustomerFilter,
  renameCustomerUpdate,
  revokePersonalTokensFilter,
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
//     is removed only then. A follow-up of a user's or group's write (the application's
//     FollowUp: a rename, an unassignment, a revocation, a deleted group) is recorded in
//     that write's own transaction (context.ts, recordedWrite): there is no moment at which
//     the write has committed and its follow-up is not yet journaled;
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
  readonly personalTokens: Collection<PersonalTokenDocument>;
  readonly repairs: Collection<RepairDocument>;
}

/** Without a time limit (the repair pass at start, on its own client), a transaction still ends within MongoDB's 60 s lifetime. */
const maintenanceLimits: TransactionLimits = { maxTimeMS: 55_000, retryWindowMs: 55_000 };

type RenameIntent = Extract<BulkIntent, { readonly op: 'renameCustomer' }>;

/**
 * Each batch of a rename reads the customer in its own snapshot and puts the newest name:
 * the user's when it is stored at the intent's version or a later one, else (the user is
 * gone) the intent's. Two renames racing (each run by its request, or one late in the repair
 * pass) so converge on the user's current name: a batch that read an older name and commits
 * after a newer rename's batch changed the same tickets meets a write conflict and runs again
 * from a fresh snapshot. Without a version the intent's name is put as given (every rename
 * now is a follow-up, with one; the repair pass gives a journal record older than the field
 * version 0).
 */
const renamePlan =
  (c: BulkCollections, i: RenameIntent): BatchPlanner<TicketDocument> =>
  async (session, maxTimeMS) => {
    let { name, now } = i;
    if (i.version !== undefined) {
      const user = await c.users.findOne(
        { _id: i.customerId },
        { projection: { name: 1, version: 1, updatedAt: 1 }, session, maxTimeMS },
      );
      if (user !== null && user.version >= i.version)
        ({ name, now } = { name: user.name, now: Math.max(now, user.updatedAt.getTime()) });
    }
    return { filter: renameCustomerFilter(i.customerId, name), update: renameCustomerUpdate(name, now) };
  };

/** The write itself: idempotent, so a second run changes only what the first did not reach. */
const apply = async (
  c: BulkCollections,
  i: BulkIntent,
  revokedBefore: Date | null,
  maxTimeMS?: number,
): Promise<void> => {
  const options = maxTimeMS === undefined ? {} : { maxTimeMS };
  const limits = maxTimeMS === undefined ? maintenanceLimits : { maxTimeMS, retryWindowMs: maxTimeMS };
  switch (i.op) {
    case 'renameCustomer':
      await changeTickets(c, renamePlan(c, i), ticketIndexName.sorted('customer', '_id'), limits, i.by ?? systemActor);
      return;
    case 'unassignUser':
      await changeTickets(
        c,
        fixedPlan<TicketDocument>(unassignUserFilter(i.userId), unassignUserUpdate(i.now)),
        'tickets_assigned_user',
        limits,
        i.by ?? systemActor,
      );
      return;
    case 'clearGroup':
      await changeTickets(
        c,
        fixedPlan<TicketDocument>(clearGroupFilter(i.groupId), clearGroupUpdate(i.now)),
        'tickets_group',
        limits,
        i.by ?? systemActor,
      );
      return;
    case 'removeGroup':
      await changeUsers(
        c,
        fixedPlan<UserDocument>(removeGroupFromUsersFilter(i.groupId), removeGroupFromUsersUpdate(i.groupId, i.now)),
        'users_groups',
        limits,
        i.by ?? systemActor,
      );
      return;
    case 'revokeUser':
      await c.tokens.deleteMany(revokeUserFilter(i.userId, revokedBefore, i.exceptFamily), options);
      return;
    case 'revokePersonalTokens':
      await c.personalTokens.deleteMany(revokePersonalTokensFilter(i.userId, revokedBefore, i.exceptToken), options);
      return;
    case 'revokeFamily':
      await c.tokens.deleteMany({ familyId: i.familyId }, options);
      return;
  }
};

/**
 * Failures worth another run at once: the database was briefly away, the time limit stopped
 * a long run (it resumes where it stopped), or a run's outcome is unknown (the write is
 * idempotent, so running it again is safe whichever way it went).
 */
const worthRetrying = (e: unknown): boolean => storeFailureOf(e, 'write') !== null;

export interface JournalOptions {
  readonly maxTimeMS: number;
  /** Runs of the write before giving up and leaving it to the repair pass. */
  readonly attempts: number;
  /** Called when the write is left to the repair pass. */
  readonly leftUndone: () => void;
}

/** One intent as the journal holds it: its key, and the mark of this recording. */
export interface JournalEntry {
  readonly _id: string;
  readonly mark: string;
  readonly intent: BulkIntent;
}

export const journalEntry = (intent: BulkIntent): JournalEntry => ({
  _id: keyOf(intent),
  mark: new ObjectId().toHexString(),
  intent,
});

/**
 * Records intents in the journal, inside the transaction of the write that makes them due
 * (with a session) or on their own: a write and its follow-ups' record commit together, so
 * a crash or a failure after the commit leaves the record for the repair pass.
 */
export const recordJournal = async (
  c: Pick<BulkCollections, 'repairs'>,
  entries: readonly JournalEntry[],
  maxTimeMS: number,
  session?: ClientSession,
): Promise<void> => {
  for (const { _id, mark, intent } of entries) {
    await c.repairs.updateOne(
      { _id },
      { $set: { intent, mark }, $currentDate: { at: true } },
      { upsert: true, maxTimeMS, ...(session === undefined ? {} : { session }) },
    );
  }
};

/** Records the intent, runs the write until it succeeds (or the attempts run out), then clears the record. */
export const journaled = async (c: BulkCollections, intent: BulkIntent, o: JournalOptions): Promise<void> => {
  // A deployment that cannot record the change with its events is refused before the journal is written.
  if (transactional(intent)) refuseWithoutTransactions(c.sessions);
  const entry = journalEntry(intent);
  await recordJournal(c, [entry], o.maxTimeMS);
  await completeJournaled(c, entry, o);
};

/**
 * Runs a recorded write until it succeeds (or the attempts run out, leaving it to the repair
 * pass), then clears its record unless a later intent for the same key replaced it (another
 * mark), which stays for whoever recorded it.
 */
export const completeJournaled = async (
  c: BulkCollections,
  { _id, mark, intent }: JournalEntry,
  o: JournalOptions,
): Promise<void> => {
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
 * done, or at once when the write is no longer due. A rename puts the customer's current
 * name when the customer still exists (the journal holds the latest intent, the user the
 * truth; a record without a version counts as the oldest). Revocations remove only tokens saved before the intent was recorded. On a
 * deployment without transactions the writes of the feed's resources stay journaled until
 * they can be made with their events.
 */
export const repairPass = async (c: BulkCollections, maxTimeMS?: number): Promise<number> => {
  const pending = await c.repairs
    .find({}, { sort: { at: 1 }, ...(maxTimeMS === undefined ? {} : { maxTimeMS }) })
    .toArray();
  for (const record of pending) {
    const intent =
      record.intent.op === 'renameCustomer' ? { ...record.intent, version: record.intent.version ?? 0 } : record.intent;
    if (transactional(intent) && c.sessions.transactionsRefused() !== null) continue;
    if (await stillDue(c, intent)) await apply(c, intent, record.at, maxTimeMS);
    await c.repairs.deleteOne({ _id: record._id, mark: record.mark });
  }
  return pending.length;
};
