import type { ChangeEvent } from '@support/domain';
import type { ClientSession, Collection, Db } from 'mongodb';
import { collectionNames } from './collections.js';
import { journaled, type BulkIntent, type RepairDocument } from './bulk-writes.js';
import { appendEvents } from './event-log.js';
import { inTransaction, type SessionSource } from './transactions.js';
import type { SearchSettings } from './ticket-search.js';
import type {
  CounterDocument,
  GroupDocument,
  MessageDocument,
  RateLimitDocument,
  TicketDocument,
  TokenDocument,
  UserDocument,
} from './documents.js';
import type { IdempotencyDocument } from './idempotency-store.js';
import type { EventDocument } from './event-log.js';
import type { PersonalTokenDocument } from './personal-token-store.js';
import type { DeliveryDocument, WebhookDocument } from './webhook-repository.js';

/** What every repository of the adapter works with. */
export interface MongoContext {
  readonly tickets: Collection<TicketDocument>;
  readonly messages: Collection<MessageDocument>;
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
   * outage), within the deadline; an unreachable database is StoreUnavailableError.
   */
  run<T>(op: () => Promise<T>): Promise<T>;
  /** Has the repair pass run soon, in the background: a bulk write was left undone. */
  scheduleRepair(): void;
}

export const collectionsOf = (db: Db) => ({
  tickets: db.collection<TicketDocument>(collectionNames.tickets),
  messages: db.collection<MessageDocument>(collectionNames.messages),
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

/** Runs a bulk write journaled (bulk-writes.ts), with the context's time limit and attempts. */
export const journaledOn = (ctx: MongoContext, intent: BulkIntent): Promise<void> =>
  ctx.run(() => journaled(ctx, intent, { maxTimeMS: ctx.maxTimeMS, attempts: 3, leftUndone: () => { ctx.scheduleRepair(); } }));

/** What a write inside a transaction made: the port's result, and the changes to record (none for a refused write). */
export interface RecordedResult<T> {
  readonly result: T;
  readonly changes: readonly ChangeEvent[];
}

/**
 * Runs a write of a ticket, message, user or group and appends its events in one transaction
 * (transactions.ts, event-log.ts), once the store is prepared and within the deadline. A write
 * refused inside (version mismatch, duplicate key) records nothing.
 */
export const recordedWrite = <T>(ctx: MongoContext, work: (session: ClientSession) => Promise<RecordedResult<T>>): Promise<T> =>
  ctx.run(() =>
    inTransaction(ctx.sessions, { maxTimeMS: ctx.maxTimeMS, retryWindowMs: ctx.maxTimeMS }, async (session) => {
      const { result, changes } = await work(session);
      await appendEvents(ctx, session, changes, ctx.maxTimeMS);
      return result;
    }),
  );

/** Waits for a driver call whose result the port does not return. */
export const done = async (p: Promise<unknown>): Promise<void> => {
  await p;
};
