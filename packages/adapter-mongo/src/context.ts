import type { Collection, Db } from 'mongodb';
import { collectionNames } from './collections.js';
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

/** What every repository of the adapter works with. */
export interface MongoContext {
  readonly tickets: Collection<TicketDocument>;
  readonly messages: Collection<MessageDocument>;
  readonly users: Collection<UserDocument>;
  readonly groups: Collection<GroupDocument>;
  readonly tokens: Collection<TokenDocument>;
  readonly rateLimits: Collection<RateLimitDocument>;
  readonly counters: Collection<CounterDocument>;
  /** Server-side limit of each operation. */
  readonly maxTimeMS: number;
  /** How ticket searches choose their plan. */
  readonly search: SearchSettings;
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
  counters: db.collection<CounterDocument>(collectionNames.counters),
});

/** Waits for a driver call whose result the port does not return. */
export const done = async (p: Promise<unknown>): Promise<void> => {
  await p;
};
