import type { EventType } from './event-type.js';
import type { TicketFieldDefinition } from './custom-fields/definition.js';
import type { Group } from './group.js';
import type { GroupId, MessageNumber, TicketFieldId, TicketId, UserId } from './ids.js';
import type { Message } from './message.js';
import type { Ticket } from './ticket.js';
import type { User } from './user.js';

// The change feed (contract §7.3): one event per committed change of a ticket, message, user
// or group, numbered by `seq` in commit order. An event keeps the resource as it was right
// after the change (its domain record, never a password hash); how it is shown on the wire is
// the edge's business.

/** A user as an event keeps it: everything but the password hash. */
export type UserSnapshot = Omit<User, 'passwordHash'>;

export type EventData =
  | { readonly resource: 'ticket'; readonly ticket: Ticket }
  | { readonly resource: 'message'; readonly message: Message }
  | { readonly resource: 'user'; readonly user: UserSnapshot }
  | { readonly resource: 'group'; readonly group: Group }
  | { readonly resource: 'ticketField'; readonly field: TicketFieldDefinition };

/** Which resource an event is about; a message is named inside its ticket. */
export type EventSubject =
  | { readonly resource: 'ticket'; readonly id: TicketId }
  | { readonly resource: 'message'; readonly ticketId: TicketId; readonly id: MessageNumber }
  | { readonly resource: 'user'; readonly id: UserId }
  | { readonly resource: 'group'; readonly id: GroupId }
  | { readonly resource: 'ticketField'; readonly id: TicketFieldId };

/** The personal access token a request was made with, as an event names it. */
export interface EventToken {
  readonly id: number;
  readonly name: string;
}

/**
 * Who made a change (contract §8.3): the user whose request made it (and the personal token
 * it was made with, if any), or the service itself. A change through a reference (a customer
 * renamed on their tickets) carries the actor of the request that caused it. Plain data: it is
 * stored with the event as it is.
 */
export type EventActor =
  { readonly type: 'user'; readonly id: UserId; readonly token?: EventToken } | { readonly type: 'system' };

/** The service itself: start-up, maintenance, anything no request made. */
export const systemActor: EventActor = { type: 'system' };

/** The user id behind an actor, or null for the service. */
export const eventActorId = (a: EventActor): UserId | null => (a.type === 'user' ? a.id : null);

/** A change as the store records it, before it has its place in the sequence. */
export interface ChangeEvent {
  readonly type: EventType;
  readonly subject: EventSubject;
  readonly actor: EventActor;
  /** Epoch ms. */
  readonly occurredAt: number;
  /** The resource right after the change; null when it was deleted. */
  readonly data: EventData | null;
}

/** A change in the feed: `seq` counts 1, 2, 3... in commit order, never reused. */
export interface StoredEvent extends ChangeEvent {
  readonly seq: number;
}

const userSnapshot = (u: User): UserSnapshot => {
  const { passwordHash: _secret, ...rest } = u;
  return rest;
};

/** A ticket was created or changed; a soft-deleted ticket is `ticket.deleted` without data. */
export const ticketEvent = (
  action: 'created' | 'updated',
  t: Ticket,
  at: number,
  actor: EventActor = systemActor,
): ChangeEvent =>
  t.deletedAt === null
    ? {
        type: `ticket.${action}`,
        subject: { resource: 'ticket', id: t.id },
        actor,
        occurredAt: at,
        data: { resource: 'ticket', ticket: t },
      }
    : { type: 'ticket.deleted', subject: { resource: 'ticket', id: t.id }, actor, occurredAt: at, data: null };

export const messageEvent = (
  action: 'created' | 'updated',
  m: Message,
  at: number,
  actor: EventActor = systemActor,
): ChangeEvent => {
  const subject = { resource: 'message', ticketId: m.ticketId, id: m.number } as const;
  return m.deletedAt === null
    ? { type: `message.${action}`, subject, actor, occurredAt: at, data: { resource: 'message', message: m } }
    : { type: 'message.deleted', subject, actor, occurredAt: at, data: null };
};

export const userEvent = (
  action: 'created' | 'updated',
  u: User,
  at: number,
  actor: EventActor = systemActor,
): ChangeEvent => ({
  type: `user.${action}`,
  subject: { resource: 'user', id: u.id },
  actor,
  occurredAt: at,
  data: { resource: 'user', user: userSnapshot(u) },
});

export const userDeletedEvent = (id: UserId, at: number, actor: EventActor = systemActor): ChangeEvent => ({
  type: 'user.deleted',
  subject: { resource: 'user', id },
  actor,
  occurredAt: at,
  data: null,
});

export const groupEvent = (
  action: 'created' | 'updated',
  g: Group,
  at: number,
  actor: EventActor = systemActor,
): ChangeEvent => ({
  type: `group.${action}`,
  subject: { resource: 'group', id: g.id },
  actor,
  occurredAt: at,
  data: { resource: 'group', group: g },
});

export const groupDeletedEvent = (id: GroupId, at: number, actor: EventActor = systemActor): ChangeEvent => ({
  type: 'group.deleted',
  subject: { resource: 'group', id },
  actor,
  occurredAt: at,
  data: null,
});

/** Whether a webhook subscribed to `types` (an event type each, or "*") wants this event. */
export const subscribesTo = (types: readonly string[], type: EventType): boolean =>
  types.includes('*') || types.includes(type);

/** A custom field's definition was created, changed or deleted (contract §10). */
export const ticketFieldEvent = (
  action: 'created' | 'updated' | 'deleted',
  f: TicketFieldDefinition,
  at: number,
  actor: EventActor = systemActor,
): ChangeEvent => ({
  type: `ticket_field.${action}`,
  subject: { resource: 'ticketField', id: f.id },
  actor,
  occurredAt: at,
  data: action === 'deleted' ? null : { resource: 'ticketField', field: f },
});
