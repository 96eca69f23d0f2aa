import type { Store } from '@support/application';
import { MemoryEventLog, type RecordingEventLog } from './event-log.js';
import { MemoryFollowUps } from './follow-ups.js';
import { memoryGroupRepository } from './group-repository.js';
import { memoryIdSequence } from './id-sequence.js';
import { memoryIdempotencyStore } from './idempotency-store.js';
import { Journal, type ChangeSink, type RecordKey } from './journal.js';
import { memoryMessageRepository } from './message-repository.js';
import { AttachmentRecords, memoryAttachmentRepository } from './attachment-repository.js';
import { memoryBlobStore } from './blob-store.js';
import { memoryStoreSettings, type MemoryStoreOptions } from './options.js';
import { memoryRateLimitCounter } from './rate-limit-counter.js';
import { memoryTicketStores } from './tickets/ticket-repository.js';
import { memoryTokenStore } from './token-store.js';
import { memoryPersonalTokenStore } from './personal-token-store.js';
import type { ShelfReader } from './shelf.js';
import { memoryUserRepository } from './user-repository.js';
import { memoryWebhookRepository } from './webhook-repository.js';

/** Notes a change the memory store made outside its own tables (the change feed's events) in the current port call. */
export type NoteChange = (table: string, key: RecordKey, value: unknown) => void;

/**
 * What makes the memory store durable: where its changes go, the change feed it writes to
 * (bound to the engine's journal), and how it reads a shelved record (shelf.ts) back.
 */
export interface Durability {
  readonly sink: ChangeSink;
  readonly feed: (note: NoteChange) => RecordingEventLog;
  readonly read: ShelfReader;
  /**
   * The process that made the stored Idempotency-Key claims is gone (a start, one process per
   * data directory): an unanswered claim comes back past its lease, so a repeat is answered at
   * once (run again, or 40903 when its request wrote) instead of waiting out the lease.
   */
  readonly claimsAbandoned?: boolean;
}

/** The memory store's ports, and how a durable store puts stored records back into it. */
export interface MemoryEngine {
  readonly store: Store;
  /** Puts stored records (as the sink received them) back into the tables and their indexes. */
  restore(records: Iterable<{ readonly table: string; readonly key: RecordKey; readonly value: unknown }>): void;
}

/** Every port of the store in memory; with `durability`, every change also goes to its sink before it is answered. */
export const createMemoryEngine = (
  options: MemoryStoreOptions = {},
  durability: Durability | null = null,
): MemoryEngine => {
  const settings = memoryStoreSettings(options);
  const journal = durability === null ? new Journal(null) : new Journal(durability.sink, durability.read);
  // Every repository records its changes here in the same synchronous step as the write.
  const events =
    durability === null
      ? new MemoryEventLog(settings.feedBytes)
      : durability.feed((table, key, value) => {
          journal.note(table, key, value);
        });
  // A user's or group's write carries out its follow-ups in its own port call (follow-ups.ts).
  const followUps = new MemoryFollowUps();
  const files = new AttachmentRecords(journal, settings.chunkLoad);
  const { tickets, ticketFields } = memoryTicketStores(journal, settings, events, followUps);
  const store: Store = {
    tickets,
    ticketFields,
    messages: memoryMessageRepository(journal, events, files),
    attachments: memoryAttachmentRepository(journal, files),
    // A durable store keeps the bytes itself (the embedded store: files in DATA_DIR/blobs).
    blobs: memoryBlobStore(),
    users: memoryUserRepository(journal, settings.chunkLoad, events, followUps),
    groups: memoryGroupRepository(journal, settings.chunkLoad, events, followUps),
    tokens: memoryTokenStore(journal, settings.chunkLoad, followUps),
    personalTokens: memoryPersonalTokenStore(journal, settings.chunkLoad, followUps),
    rateLimits: memoryRateLimitCounter(settings.chunkLoad),
    idempotency: memoryIdempotencyStore(journal, settings.chunkLoad, durability?.claimsAbandoned === true),
    webhooks: memoryWebhookRepository(journal, settings.chunkLoad),
    events,
    ids: memoryIdSequence(journal),
    // Memory always answers.
    health: { ping: () => Promise.resolve(true) },
  };
  // Every journalled table has its restorer now, or the engine does not start.
  journal.seal();
  return {
    store,
    restore: (records) => {
      journal.restore(records);
    },
  };
};

/** Every port of the store in this process's memory: empty at start, gone at exit. */
export const createMemoryStore = (options: MemoryStoreOptions = {}): Store => createMemoryEngine(options).store;
