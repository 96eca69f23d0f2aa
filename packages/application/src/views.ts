import type {
  Group,
  GroupId,
  Message,
  PageRequest,
  Ticket,
  TicketFieldDefinition,
  TicketRelation,
  TicketState,
  User,
  UserId,
  Webhook,
} from '@support/domain';
import type { DeliveryRecord } from './ports/webhook-repository.js';

/**
 * A related resource as the caller may see it: all of it, or (another user seen by a
 * customer) only its id and name.
 */
export type Related<T, Id> =
  { readonly kind: 'full'; readonly value: T } | { readonly kind: 'limited'; readonly id: Id; readonly name: string };

/** What `embed` asked for; a relation that was not asked for is absent, a link to nothing is null. */
export interface TicketRelations {
  readonly customer?: Related<User, UserId> | null;
  readonly assignedUser?: Related<User, UserId> | null;
  readonly group?: Related<Group, GroupId> | null;
}

export interface TicketView {
  readonly ticket: Ticket;
  readonly related: TicketRelations;
  /** Contract §7.2: the states this caller may move the ticket to now. */
  readonly allowedTransitions: readonly TicketState[];
  /** The custom fields this caller sees (contract §10), by position: the members of `custom_fields`. */
  readonly fields: readonly TicketFieldDefinition[];
}

/** A single ticket read: the relations to load, and the custom fields `fields=cf.<key>` names. */
export interface TicketReadQuery {
  readonly embed: readonly TicketRelation[];
  readonly customKeys: readonly string[];
}

export interface ListResult<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly page: PageRequest;
}

export type TicketList = ListResult<TicketView>;
export type MessageList = ListResult<Message>;
export type UserList = ListResult<User>;
export type GroupList = ListResult<Group>;
export type WebhookList = ListResult<Webhook>;
export type DeliveryList = ListResult<DeliveryRecord>;
