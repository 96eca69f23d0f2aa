export type * from './ticket-repository.js';
export type * from './ticket-field-repository.js';
export type * from './message-repository.js';
export type * from './attachment-repository.js';
export type * from './blob-store.js';
export type * from './malware-scanner.js';
export type * from './user-repository.js';
export type * from './group-repository.js';
export type * from './token-store.js';
export type * from './personal-token-store.js';
export type * from './rate-limit-counter.js';
export type * from './idempotency-store.js';
export type * from './webhook-repository.js';
export type * from './event-log.js';
export type * from './webhook-sender.js';
export type * from './id-sequence.js';
export type * from './clock.js';
export { PasswordHasherBusyError, type PasswordHasher } from './password-hasher.js';
export type * from './token-generator.js';
export type * from './follow-ups.js';
export { BlobHolds } from './blob-holds.js';
export {
  StoreTimeLimitError,
  StoreUnavailableError,
  StoreWriteNotConfirmedError,
  type StoreHealth,
} from './store-health.js';

import type { Clock } from './clock.js';
import type { GroupRepository } from './group-repository.js';
import type { IdSequence } from './id-sequence.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { WebhookRepository } from './webhook-repository.js';
import type { EventLog } from './event-log.js';
import type { WebhookSender } from './webhook-sender.js';
import type { MessageRepository } from './message-repository.js';
import type { AttachmentRepository } from './attachment-repository.js';
import type { BlobStore } from './blob-store.js';
import type { MalwareScanner } from './malware-scanner.js';
import type { PasswordHasher } from './password-hasher.js';
import type { RateLimitCounter } from './rate-limit-counter.js';
import type { StoreHealth } from './store-health.js';
import type { TicketRepository } from './ticket-repository.js';
import type { TicketFieldRepository } from './ticket-field-repository.js';
import type { TokenGenerator } from './token-generator.js';
import type { TokenStore } from './token-store.js';
import type { PersonalTokenStore } from './personal-token-store.js';
import type { UserRepository } from './user-repository.js';

/** Everything a store adapter provides. */
export interface Store {
  readonly tickets: TicketRepository;
  readonly ticketFields: TicketFieldRepository;
  readonly messages: MessageRepository;
  readonly attachments: AttachmentRepository;
  /** The bytes of uploaded files (never in a record). */
  readonly blobs: BlobStore;
  readonly users: UserRepository;
  readonly groups: GroupRepository;
  readonly tokens: TokenStore;
  readonly personalTokens: PersonalTokenStore;
  readonly rateLimits: RateLimitCounter;
  readonly idempotency: IdempotencyStore;
  readonly webhooks: WebhookRepository;
  readonly events: EventLog;
  readonly ids: IdSequence;
  readonly health: StoreHealth;
}

/** Every port the application needs. */
export interface Ports extends Store {
  readonly clock: Clock;
  readonly passwords: PasswordHasher;
  readonly secrets: TokenGenerator;
  readonly webhookSender: WebhookSender;
  /** Asked about every upload before it is kept; null when no scanner is configured (SCAN_CLAMD unset). */
  readonly scanner: MalwareScanner | null;
}
