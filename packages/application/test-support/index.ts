// Test support for store adapters: one contract suite per port, written once and run
// unchanged against every adapter, with the object mothers and reference search they use.
// Call each suite inside a test file: describeXContract('MyStore', () => makeFreshStore()).

import { describeAttachmentRepositoryContract } from './attachment-repository-contract.js';
import { describeBlobStoreContract } from './blob-store-contract.js';
import { describeEventLogContract } from './event-log-contract.js';
import { describeFollowUpContract } from './follow-up-contract.js';
import { describeGroupRepositoryContract } from './group-repository-contract.js';
import { describeIdSequenceContract } from './id-sequence-contract.js';
import { describeIdempotencyStoreContract } from './idempotency-store-contract.js';
import { describeMessageRepositoryContract } from './message-repository-contract.js';
import { describeRateLimitCounterContract } from './rate-limit-counter-contract.js';
import { describeStoreHealthContract } from './store-health-contract.js';
import type { Store } from '../src/index.js';
import type { MakeStore } from './store-factory.js';
import { describeTicketFieldRepositoryContract } from './ticket-field-repository-contract.js';
import { describeTicketRepositoryContract } from './ticket-repository-contract.js';
import { describeTokenStoreContract } from './token-store-contract.js';
import { describePersonalTokenStoreContract } from './personal-token-store-contract.js';
import { describeUserRepositoryContract } from './user-repository-contract.js';
import { describeWebhookRepositoryContract } from './webhook-repository-contract.js';

export {
  describeAttachmentRepositoryContract,
  describeBlobStoreContract,
  describeEventLogContract,
  describeFollowUpContract,
  describeGroupRepositoryContract,
  describeIdSequenceContract,
  describeIdempotencyStoreContract,
  describeMessageRepositoryContract,
  describeRateLimitCounterContract,
  describeStoreHealthContract,
  describeTicketFieldRepositoryContract,
  describeTicketRepositoryContract,
  describeTokenStoreContract,
  describePersonalTokenStoreContract,
  describeUserRepositoryContract,
  describeWebhookRepositoryContract,
};
export { freshStorePerTest, type ContractStore, type MakeStore } from './store-factory.js';
export * from './mothers.js';
export { manualClock, type ManualClock } from './clock.js';
export { aFilter, expectedSearch, sortName, sortOf, wordsOf } from './reference-search.js';
export { helpDesk } from './help-desk.js';
export { readFeedWhileWriting, type FeedReading } from './feed-reader.js';
export { carryOut } from './follow-up-carrier.js';

type ContractSuite = (name: string, makeStore: MakeStore) => void;

/**
 * The contract suite of each port a store provides, keyed as `Store` names the ports: a port
 * added to `Store` without its suite here fails the build (a suite written but never run passes
 * nothing). Follow-ups (a write's later effects, across ports) have a suite of their own.
 */
export const portContracts = {
  tickets: describeTicketRepositoryContract,
  ticketFields: describeTicketFieldRepositoryContract,
  messages: describeMessageRepositoryContract,
  attachments: describeAttachmentRepositoryContract,
  blobs: describeBlobStoreContract,
  users: describeUserRepositoryContract,
  groups: describeGroupRepositoryContract,
  followUps: describeFollowUpContract,
  tokens: describeTokenStoreContract,
  personalTokens: describePersonalTokenStoreContract,
  rateLimits: describeRateLimitCounterContract,
  idempotency: describeIdempotencyStoreContract,
  webhooks: describeWebhookRepositoryContract,
  events: describeEventLogContract,
  ids: describeIdSequenceContract,
  health: describeStoreHealthContract,
} satisfies { readonly [K in keyof Store]: ContractSuite } & Readonly<Record<string, ContractSuite>>;

/** Every port contract suite, to run them all on one adapter (a list, not a suite itself). */
export const portContractSuites: readonly ContractSuite[] = Object.values(portContracts);
