import type { EventType } from './event-type.js';
import type { Group } from './group.js';
import type { GroupId, MessageNumber, TicketId, UserId } from './ids.js';
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
  | { readonly resource: 'group'; readonly group: Group };

/** Which resource an event is about; a message is named inside its ticket. */
export type EventSubject =
  | { readonly resource: 'ticket'; readonly id: TicketId }
  | { readonly resource: 'message'; readonly ticketId: TicketId; readonly id: MessageNumber }
  | { readonly resource: 'user'; readonly id: UserId }
  | { readonly resource: 'group'; readonly id: GroupId };

/** A change as the store records it, before it has its place in the sequence. */
export interface ChangeEvent {
  readonly type: EventType;
  readonly subject: EventSubject;
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
export const ticketEvent = (action: 'created' | 'updated', t: Ticket, at: number): ChangeEvent =>
  t.deletedAt === null
    ? { type: `ticket.${action}`, subject: { resource: 'ticket', id: t.id }, occurredAt: at, data: { resource: 'ticket', ticket: t } }
    : { type: 'ticket.deleted', subject: { resource: 'ticket', id: t.id }, occurredAt: at, data: null };

export const messageEvent = (action: 'created' | 'updated', m: Message, at: number): ChangeEvent => {
  const subject = { resource: 'message', ticketId: m.ticketId, id: m.number } as const;
  return m.deletedAt === null
    ? { type: `message.${action}`, subject, occurredAt: at, data: { resource: 'message', message: m } }
    : { type: 'message.deleted', subject, occurredAt: at, data: null };
};

export const userEvent = (action: 'created' | 'updated', u: User, at: number): ChangeEvent => ({
  type: `user.${action}`,
  subject: { resource: 'user', id: u.id },
  occurredAt: at,
  data: { resource: 'user', user: userSnapshot(u) },
});

export const userDeletedEvent = (id: UserId, at: number): ChangeEvent => ({ type: 'user.deleted', subject: { resource: 'user', id }, occurredAt: at, data: null });

export const groupEvent = (action: 'created' | 'updated', g: Group, at: number): ChangeEvent => ({
  type: `group.${action}`,
  subject: { resource: 'group', id: g.id },
  occurredAt: at,
  data: { resource: 'group', group: g },
});

export const groupDeletedEvent = (id: GroupId, at: number): ChangeEvent => ({ type: 'group.deleted', subject: { resource: 'group', id }, occurredAt: at, data: null });

/** Whether a webhook subscribed to `types` (an event type each, or "*") wants this event. */
export const subscribesTo = (types: readonly string[], type: EventType): boolean => types.includes('*') || types.includes(type);
