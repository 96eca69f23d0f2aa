import type { FollowUp } from '@support/application';
import type { ChangeEvent, EventActor } from '@support/domain';
import type { ClientSession, Collection, Db, GridFSBucket, GridFSChunk, GridFSFile } from 'mongodb';
import type { AttachmentDocument } from './attachment-documents.js';
import { collectionNames } from './collections.js';
import type { CallKind } from './errors.js';
import {
  completeJournaled,
  followUpIntent,
  journaled,
  journalEntry,
  recordJournal,
  type BulkIntent,
  type JournalEntry,
  type JournalOptions,
  type RepairDocument,
} from './bulk-writes.js';
import { appendEvents } from './event-append.js';
import { inTransaction, type SessionSource } from './transactions.js';
import type { SearchSettings } from './options.js';
import type {
  CounterDocument,
  GroupDocument,
  MessageDocument,
  RateLimitDocument,
  TicketDocument,
  TokenDocument,
  UserDocument,
} from './documents.js';
import type { TicketFieldDocument } from './custom-field-documents.js';
import type {
  DeliveryDocument,
  EventDocument,
  IdempotencyDocument,
  PersonalTokenDocument,
  WebhookDocument,
} from './service-documents.js';

/** What every repository of the adapter works with. */
export interface MongoContext {
  readonly tickets: Collection<TicketDocument>;
  readonly ticketFields: Collection<TicketFieldDocument>;
  readonly messages: Collection<MessageDocument>;
  readonly attachments: Collection<AttachmentDocument>;
  /** GridFS over blobs.files and blobs.chunks: the files' bytes. */
  readonly bucket: GridFSBucket;
  readonly blobFiles: Collection<GridFSFile>;
  readonly blobChunks: Collection<GridFSChunk>;
  readonly users: Collection<UserDocument>;
  readonly groups: Collection<GroupDocument>;
  readonly tokens: Collection<TokenDocument>;
  readonly personalTokens: Collection<PersonalTokenDocument>;
  readonly rateLimits: Collection<RateLimitDocument>;
  readonly idempotency: Collection<IdempotencyDocument>;
  readonly webhooks: Collection<WebhookDocument>;
  readonly deliveries: Collection<DeliveryDocument>;
  readonly events: Collection<EventDocument>;
  readonly counters: Collection<CounterDocument>;
  readonly repairs: Collection<RepairDocument>;
  /** Sessions for the transactions every write of the feed's resources runs in. */
  readonly sessions: SessionSource;
  /** Server-side limit of each operation. */
  readonly maxTimeMS: number;
  /** How ticket searches choose their plan. */
  readonly search: SearchSettings;
  /**
   * Runs a driver call once the indexes exist (created on first use, retried after an
   * outage), within the deadline; an unreachable database is StoreUnavailableError. A
   * 'write' (errors.ts, CallKind) whose outcome the driver could not learn is
   * StoreWriteNotConfirmedError, not "unavailable".
   */
  run<T>(op: () => Promise<T>, kind?: CallKind): Promise<T>;
  /** Has the repair pass run soon, in the background: a bulk write was left undone. */
  scheduleRepair(): void;
}

/** The GridFS bucket of the files' bytes: collections blobs.files and blobs.chunks. */
export const blobBucket = 'blobs';

export const collectionsOf = (db: Db) => ({
  tickets: db.collection<TicketDocument>(collectionNames.tickets),
  ticketFields: db.collection<TicketFieldDocument>(collectionNames.ticketFields),
  messages: db.collection<MessageDocument>(collectionNames.messages),
  attachments: db.collection<AttachmentDocument>(collectionNames.attachments),
  blobFiles: db.collection<GridFSFile>(collectionNames.blobFiles),
  blobChunks: db.collection<GridFSChunk>(collectionNames.blobChunks),
  users: db.collection<UserDocument>(collectionNames.users),
  groups: db.collection<GroupDocument>(collectionNames.groups),
  tokens: db.collection<TokenDocument>(collectionNames.tokens),
  personalTokens: db.collection<PersonalTokenDocument>(collectionNames.personalTokens),
  rateLimits: db.collection<RateLimitDocument>(collectionNames.rateLimits),
  idempotency: db.collection<IdempotencyDocument>(collectionNames.idempotency),
  webhooks: db.collection<WebhookDocument>(collectionNames.webhooks),
  deliveries: db.collection<DeliveryDocument>(collectionNames.deliveries),
  events: db.collection<EventDocument>(collectionNames.events),
  counters: db.collection<CounterDocument>(collectionNames.counters),
  repairs: db.collection<RepairDocument>(collectionNames.repairs),
});

const journalOptions = (ctx: MongoContext): JournalOptions => ({
  maxTimeMS: ctx.maxTimeMS,
  attempts: 3,
  leftUndone: () => {
    ctx.scheduleRepair();
  },
});

/** Runs a bulk write journaled (bulk-writes.ts), with the context's time limit and attempts. */
export const journaledOn = (ctx: MongoContext, intent: BulkIntent): Promise<void> =>
  ctx.run(() => journaled(ctx, intent, journalOptions(ctx)));

/** What a write inside a transaction made: the port's result, the changes to record (none for a refused write) and the follow-ups it made due (none for a refused write). */
export interface RecordedResult<T> {
  readonly result: T;
  readonly changes: readonly ChangeEvent[];
  readonly followUps?: readonly FollowUp[];
  /** The write's actor, journaled with each follow-up so that its events carry it (contract §8.3), a repair's included. */
  readonly by?: EventActor | undefined;
}

/**
 * Runs a write of a ticket, message, user or group and appends its events in one transaction
 * (transactions.ts, event-log.ts), once the store is prepared and within the deadline. A write
 * refused inside (version mismatch, duplicate key) records nothing. The follow-ups it made due
 * are journaled in the same transaction and run once it has committed (bulk-writes.ts): a
 * failure or a crash after the commit leaves them to the repair pass, never undone.
 */
export const recordedWrite = async <T>(
  ctx: MongoContext,
  work: (session: ClientSession) => Promise<RecordedResult<T>>,
): Promise<T> => {
  let journal: readonly JournalEntry[] = [];
  const transaction = ctx.run(() =>
    inTransaction(ctx.sessions, { maxTimeMS: ctx.maxTimeMS, retryWindowMs: ctx.maxTimeMS }, async (session) => {
      const { result, changes, followUps = [], by } = await work(session);
      // Each run of the transaction records afresh; the run that commits is the one kept.
      journal = followUps.map((f) => journalEntry(followUpIntent(f, by)));
      await recordJournal(ctx, journal, ctx.maxTimeMS, session);
      await appendEvents(ctx, session, changes, ctx.maxTimeMS);
      return result;
    }),
  );
  // A commit whose outcome is unknown may have journaled follow-ups that nobody runs now.
  const result = await transaction.catch((e: unknown) => {
    if (journal.length > 0) ctx.scheduleRepair();
    throw e;
  });
  for (const entry of journal) await ctx.run(() => completeJournaled(ctx, entry, journalOptions(ctx)));
  return result;
};

/** Waits for a driver call whose result the port does not return. */
export const done = async (p: Promise<unknown>): Promise<void> => {
  await p;
};
