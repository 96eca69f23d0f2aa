import type { Store } from '@support/application';
import { MemoryEventLog } from './event-log.js';
import { memoryGroupRepository } from './group-repository.js';
import { memoryIdSequence } from './id-sequence.js';
import { memoryIdempotencyStore } from './idempotency-store.js';
import { memoryMessageRepository } from './message-repository.js';
import { memoryStoreSettings, type MemoryStoreOptions } from './options.js';
import { memoryRateLimitCounter } from './rate-limit-counter.js';
import { memoryTicketRepository } from './tickets/ticket-repository.js';
import { memoryTokenStore } from './token-store.js';
import { memoryUserRepository } from './user-repository.js';
import { memoryWebhookRepository } from './webhook-repository.js';

/** Every port of the store in this process's memory: empty at start, gone at exit. */
export const createMemoryStore = (options: MemoryStoreOptions = {}): Store => {
  const settings = memoryStoreSettings(options);
  // Every repository records its changes here in the same synchronous step as the write.
  const events = new MemoryEventLog();
  return {
    tickets: memoryTicketRepository(settings, events),
    messages: memoryMessageRepository(settings.chunkLoad, events),
    users: memoryUserRepository(settings.chunkLoad, events),
    groups: memoryGroupRepository(settings.chunkLoad, events),
    tokens: memoryTokenStore(settings.chunkLoad),
    rateLimits: memoryRateLimitCounter(settings.chunkLoad),
    idempotency: memoryIdempotencyStore(settings.chunkLoad),
    webhooks: memoryWebhookRepository(settings.chunkLoad),
    events,
    ids: memoryIdSequence(),
    // Memory always answers.
    health: { ping: () => Promise.resolve(true) },
  };
};
