import type { Collection, Db } from 'mongodb';
import { collectionNames } from './collections.js';
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
import type { DeliveryDocument, WebhookDocument } from './webhook-repository.js';

/** What every repository of the adapter works with. */
export interface MongoContext {
  readonly tickets: Collection<TicketDocument>;
  readonly messages: Collection<MessageDocument>;
  readonly users: Collection<UserDocument>;
  readonly groups: Collection<GroupDocument>;
  readonly tokens: Collection<TokenDocument>;
  readonly rateLimits: Collection<RateLimitDocument>;
  readonly idempotency: Collection<IdempotencyDocument>;
  readonly webhooks: Collection<WebhookDocument>;
  readonly deliveries: Collection<DeliveryDocument>;
  readonly events: Collection<EventDocument>;
  readonly counters: Collection<CounterDocument>;
  /** Server-side limit of each operation. */
  readonly maxTimeMS: number;
  /**
   * Runs a driver call once the indexes exist (created on first use, retried after an
   * outage), within the deadline; an unreachable database is StoreUnavailableError.
   */
  run<T>(op: () => Promise<T>): Promise<T>;
}

export const collectionsOf = (db: Db) => ({
  tickets: db.collection<TicketDocument>(collectionNames.tickets),
  messages: db.collection<MessageDocument>(collectionNames.messages),
  users: db.collection<UserDocument>(collectionNames.users),
  groups: db.collection<GroupDocument>(collectionNames.groups),
  tokens: db.collection<TokenDocument>(collectionNames.tokens),
  rateLimits: db.collection<RateLimitDocument>(collectionNames.rateLimits),
  idempotency: db.collection<IdempotencyDocument>(collectionNames.idempotency),
  webhooks: db.collection<WebhookDocument>(collectionNames.webhooks),
  deliveries: db.collection<DeliveryDocument>(collectionNames.deliveries),
  events: db.collection<EventDocument>(collectionNames.events),
  counters: db.collection<CounterDocument>(collectionNames.counters),
});

/** Waits for a driver call whose result the port does not return. */
export const done = async (p: Promise<unknown>): Promise<void> => {
  await p;
};
