export * from './ports/index.js';
export type * from './actor.js';
export type * from './views.js';
export type * from './application.js';
export type * from './decoded.js';
export type * from './rate-limit.js';
export * from './auth/oauth.js';
export * from './create-application.js';
export {
  idempotencyScope,
  isKeptStatus,
  type IdempotencyConfig,
  type IdempotencyDecision,
} from './idempotency/use-case.js';
export { repeatAccess, type RepeatAccess } from './idempotency/repeat-access.js';
export { eventsQueryBounds, type EventPage, type EventsQuery } from './events/feed.js';
export { withDeadline } from './deadline.js';
export type { CreatedPersonalToken, PersonalTokenList } from './tokens/use-cases.js';
export { operationNeeds, acceptedScopes, type Needs } from './scopes.js';
export { actorScopes } from './actor.js';
export {
  collectOrphans,
  expireUploads,
  type AttachmentsConfig,
  type AttachmentContent,
  type AttachmentRead,
  type PendingUpload,
  type TicketAttachmentList,
  type UploadInput,
} from './attachments/index.js';
export type { TicketFieldList } from './ticket-fields/use-cases.js';
