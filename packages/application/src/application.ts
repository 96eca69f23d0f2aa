import type {
  Attachment,
  AttachmentId,
  DomainError,
  Email,
  Group,
  GroupCreateInput,
  GroupId,
  GroupPatchInput,
  Message,
  MessageCreateInput,
  MessageNumber,
  MessagePatchInput,
  PageRequest,
  PersonalTokenCreateInput,
  TicketFieldCreateInput,
  TicketFieldDefinition,
  TicketFieldId,
  TicketFieldPatchInput,
  Scope,
  TicketCreateInput,
  TicketId,
  TicketPatchInput,
  TicketQuery,
  TicketReplaceInput,
  User,
  UserCreateInput,
  UserId,
  UserPatchInput,
  UserReplaceInput,
  Webhook,
  WebhookCreateInput,
  WebhookId,
  WebhookPatchInput,
  WebhookReplayInput,
} from '@support/domain';
import type { Either } from 'fp-ts/lib/Either.js';
import type { Actor } from './actor.js';
import type { GrantRefusal, OAuthError, TokenGrant } from './auth/oauth.js';
import type { DecodedBody, DecodedQuery } from './decoded.js';
import type { EventPage, EventsQuery } from './events/feed.js';
import type { RepeatAccess } from './idempotency/repeat-access.js';
import type { IdempotencyDecision } from './idempotency/use-case.js';
import type { WriteOptions } from './precondition.js';
import type { PendingUpload, UploadInput } from './attachments/upload.js';
import type { AttachmentContent, AttachmentRead, TicketAttachmentList } from './attachments/use-cases.js';
import type { RateLimitStatus, RateSubject } from './rate-limit.js';
import type { TicketFieldList } from './ticket-fields/use-cases.js';
import type {
  DeliveryList,
  GroupList,
  MessageList,
  TicketList,
  TicketReadQuery,
  TicketView,
  UserList,
  WebhookList,
} from './views.js';
import type { PersonalTokenRecord } from './ports/personal-token-store.js';
import type { CreatedPersonalToken, PersonalTokenList } from './tokens/use-cases.js';

export type { Precondition, WriteOptions } from './precondition.js';

export type Result<T> = Promise<Either<DomainError, T>>;

/**
 * Every use case of the service. Queries and bodies arrive decoded by the edge (see
 * decoded.ts): typed values, or the edge's refusal, which the use case answers in its turn.
 */
export interface Application {
  readonly auth: {
    /** The caller behind an access token; Unauthenticated when missing, unknown, revoked or expired. */
    authenticate(token: string | null): Result<Actor>;
    /** OAuth 2 password grant: unknown user and wrong password answer identically. */
    /** `scope` narrows the login (contract §8.2): what was asked for and the role can use; absent, every scope of the role. */
    passwordGrant(
      username: string,
      password: string,
      scope?: readonly Scope[],
    ): Promise<Either<GrantRefusal, TokenGrant>>;
    /** OAuth 2 refresh grant: the refresh token rotates; a reused one revokes its whole family. */
    refreshGrant(refreshToken: string): Promise<Either<OAuthError, TokenGrant>>;
    /** RFC 7009: revokes an access or refresh token (a refresh token takes its family with it). Unknown tokens are ignored. */
    revoke(token: string): Promise<void>;
  };
  readonly rateLimit: {
    /** Counts one request of this subject and tells whether it is within the limit. */
    consume(subject: RateSubject): Promise<RateLimitStatus>;
  };
  readonly idempotency: {
    /**
     * Decides what a request carrying an Idempotency-Key does: run (and report its answer),
     * replay a kept answer, or be refused (another request's key, or one still running).
     * `fingerprint` hashes the request's method, path and body; keys are scoped to the caller.
     */
    begin(actor: Actor | null, clientIp: string, key: string, fingerprint: string): Promise<IdempotencyDecision>;
    /**
     * Whether the caller may run an operation of this access now (scope, role): checked before a
     * repeat is answered with its kept answer (contract §11); the refusal when not.
     */
    mayRepeat(actor: Actor, access: RepeatAccess): DomainError | null;
  };
  readonly events: {
    /** The change feed after a cursor (agents and admins); waits up to the query's seconds when nothing is newer, or until `shutdown`. */
    list(actor: Actor, query: DecodedQuery<EventsQuery>, shutdown: AbortSignal): Result<EventPage>;
    /** Forgets the events older than the retention (EVENTS_RETENTION_DAYS); run now and then. */
    forgetOld(): Promise<void>;
  };
  readonly webhooks: {
    list(actor: Actor, page: DecodedQuery<PageRequest>): Result<WebhookList>;
    get(actor: Actor, id: WebhookId): Result<Webhook>;
    /** The answer carries the signing secret, the only time it is shown (with rotateSecret). */
    create(actor: Actor, input: DecodedBody<WebhookCreateInput>): Result<Webhook>;
    patch(
      actor: Actor,
      id: WebhookId,
      input: DecodedBody<WebhookPatchInput>,
      options?: WriteOptions<Webhook>,
    ): Result<Webhook>;
    delete(actor: Actor, id: WebhookId, options?: WriteOptions<Webhook>): Result<Webhook>;
    rotateSecret(actor: Actor, id: WebhookId): Result<Webhook>;
    replay(actor: Actor, id: WebhookId, input: DecodedBody<WebhookReplayInput>): Result<Webhook>;
    deliveries(actor: Actor, id: WebhookId, page: DecodedQuery<PageRequest>): Result<DeliveryList>;
    /** The webhooks with something to deliver now. */
    due(): Promise<readonly WebhookId[]>;
    /** One delivery step for one webhook by this process (under its lease); whether it made progress. */
    deliverNext(id: WebhookId): Promise<boolean>;
    /** One step for every webhook with something to do, side by side; how many made progress. */
    deliverDue(): Promise<number>;
  };
  readonly tickets: {
    list(actor: Actor, query: DecodedQuery<TicketQuery>): Result<TicketList>;
    /** One ticket, with the related resources `embed` names. */
    get(actor: Actor, id: TicketId, query: DecodedQuery<TicketReadQuery>): Result<TicketView>;
    create(actor: Actor, input: DecodedBody<TicketCreateInput>): Result<TicketView>;
    replace(
      actor: Actor,
      id: TicketId,
      input: DecodedBody<TicketReplaceInput>,
      options?: WriteOptions<TicketView>,
    ): Result<TicketView>;
    patch(
      actor: Actor,
      id: TicketId,
      input: DecodedBody<TicketPatchInput>,
      options?: WriteOptions<TicketView>,
    ): Result<TicketView>;
    delete(actor: Actor, id: TicketId, options?: WriteOptions<TicketView>): Result<TicketView>;
  };
  /** Custom field definitions (contract §10). */
  readonly ticketFields: {
    /** Every definition, for the public OpenAPI document (which describes custom_fields with them). */
    described(): Promise<readonly TicketFieldDefinition[]>;
    list(actor: Actor, page: DecodedQuery<PageRequest>): Result<TicketFieldList>;
    get(actor: Actor, id: TicketFieldId): Result<TicketFieldDefinition>;
    create(actor: Actor, input: DecodedBody<TicketFieldCreateInput>): Result<TicketFieldDefinition>;
    patch(
      actor: Actor,
      id: TicketFieldId,
      input: DecodedBody<TicketFieldPatchInput>,
      options?: WriteOptions<TicketFieldDefinition>,
    ): Result<TicketFieldDefinition>;
    delete(
      actor: Actor,
      id: TicketFieldId,
      options?: WriteOptions<TicketFieldDefinition>,
    ): Result<TicketFieldDefinition>;
  };
  readonly messages: {
    list(actor: Actor, ticketId: TicketId, page: DecodedQuery<PageRequest>): Result<MessageList>;
    get(actor: Actor, ticketId: TicketId, number: MessageNumber): Result<Message>;
    create(actor: Actor, ticketId: TicketId, input: DecodedBody<MessageCreateInput>): Result<Message>;
    replace(
      actor: Actor,
      ticketId: TicketId,
      number: MessageNumber,
      input: DecodedBody<MessageCreateInput>,
      options?: WriteOptions<Message>,
    ): Result<Message>;
    patch(
      actor: Actor,
      ticketId: TicketId,
      number: MessageNumber,
      input: DecodedBody<MessagePatchInput>,
      options?: WriteOptions<Message>,
    ): Result<Message>;
    delete(actor: Actor, ticketId: TicketId, number: MessageNumber, options?: WriteOptions<Message>): Result<Message>;
  };
  /** Files on messages (contract §9). */
  readonly attachments: {
    /** Receives a file (nothing stored yet): the edge keeps it, or discards it (an Idempotency-Key repeat). */
    upload(actor: Actor, input: UploadInput): Result<PendingUpload>;
    /** The record, and when its representation last changed (its Last-Modified). */
    get(actor: Actor, id: AttachmentId): Result<AttachmentRead>;
    /** The record and a way to read its bytes, as `get` may reach it. */
    content(actor: Actor, id: AttachmentId): Result<AttachmentContent>;
    list(actor: Actor, ticketId: TicketId, page: DecodedQuery<PageRequest>): Result<TicketAttachmentList>;
    /** Agents and admins; answers the record as it was. */
    delete(actor: Actor, id: AttachmentId): Result<Attachment>;
    /** Housekeeping: removes expired uploads, and bytes no record names (older than a minute). */
    sweep(): Promise<{ readonly expired: number; readonly orphans: number }>;
  };
  readonly users: {
    /** The caller (GET /v1/users/me): needs no scope, a token may always learn whose it is. */
    me(actor: Actor): Result<User>;
    list(actor: Actor, page: DecodedQuery<PageRequest>): Result<UserList>;
    get(actor: Actor, id: UserId | 'me'): Result<User>;
    create(actor: Actor, input: DecodedBody<UserCreateInput>): Result<User>;
    replace(
      actor: Actor,
      id: UserId | 'me',
      input: DecodedBody<UserReplaceInput>,
      options?: WriteOptions<User>,
    ): Result<User>;
    patch(
      actor: Actor,
      id: UserId | 'me',
      input: DecodedBody<UserPatchInput>,
      options?: WriteOptions<User>,
    ): Result<User>;
    delete(actor: Actor, id: UserId, options?: WriteOptions<User>): Result<User>;
  };
  readonly groups: {
    list(actor: Actor, page: DecodedQuery<PageRequest>): Result<GroupList>;
    get(actor: Actor, id: GroupId): Result<Group>;
    /** The members of a group, by user id. */
    members(actor: Actor, id: GroupId, page: DecodedQuery<PageRequest>): Result<UserList>;
    create(actor: Actor, input: DecodedBody<GroupCreateInput>): Result<Group>;
    replace(
      actor: Actor,
      id: GroupId,
      input: DecodedBody<GroupCreateInput>,
      options?: WriteOptions<Group>,
    ): Result<Group>;
    patch(actor: Actor, id: GroupId, input: DecodedBody<GroupPatchInput>, options?: WriteOptions<Group>): Result<Group>;
    delete(actor: Actor, id: GroupId, options?: WriteOptions<Group>): Result<Group>;
  };
  readonly tokens: {
    /** A personal access token for the caller; the answer carries the token, the only time it is shown. */
    create(actor: Actor, input: DecodedBody<PersonalTokenCreateInput>): Result<CreatedPersonalToken>;
    /** The caller's tokens ('me'), or (admins) another user's; never the secrets. */
    list(actor: Actor, owner: UserId | 'me', page: DecodedQuery<PageRequest>): Result<PersonalTokenList>;
    get(actor: Actor, owner: UserId | 'me', id: number): Result<PersonalTokenRecord>;
    /** Revoked at once, for every process. */
    revoke(actor: Actor, owner: UserId | 'me', id: number): Result<PersonalTokenRecord>;
  };
  readonly setup: {
    /** Creates the first admin when no user exists yet (running `beforeCreate` first, only then); true when it did. */
    ensureFirstAdmin(email: Email, password: string, beforeCreate?: () => Promise<void>): Promise<boolean>;
  };
  readonly health: {
    /** Whether the store answers. */
    ready(): Promise<boolean>;
  };
}
