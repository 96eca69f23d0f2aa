import type { Store } from '@support/application';
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
  return {
    tickets: memoryTicketRepository(settings),
    messages: memoryMessageRepository(settings.chunkLoad),
    users: memoryUserRepository(settings.chunkLoad),
    groups: memoryGroupRepository(settings.chunkLoad),
    tokens: memoryTokenStore(settings.chunkLoad),
    rateLimits: memoryRateLimitCounter(settings.chunkLoad),
    idempotency: memoryIdempotencyStore(settings.chunkLoad),
    webhooks: memoryWebhookRepository(settings.chunkLoad),
    ids: memoryIdSequence(),
    // Memory always answers.
    health: { ping: () => Promise.resolve(true) },
  };
};
