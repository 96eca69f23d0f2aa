import {
  allowedTransitions,
  type EventActor,
  type EventData,
  type EventSubject,
  type StoredEvent,
  type TicketFieldDefinition,
} from '@support/domain';
import { ticketFieldRepresentation } from './ticket-field.js';
import { timestamp } from './common.js';
import { groupRepresentation } from './group.js';
import { messageRepresentation } from './message.js';
import { ticketRepresentation } from './ticket.js';
import type { Urls } from './urls.js';
import { userRepresentation } from './user.js';

// One change of the feed, as GET /v1/events lists it and as webhooks receive it:
// {seq, type, occurred_at, resource: {type, id, url}, actor, data}, `data` being the resource as an
// admin sees it right after the change (null when it was deleted).

const subjectUrl = (urls: Urls, s: EventSubject): string => {
  switch (s.resource) {
    case 'ticket':
      return urls.ticket(s.id);
    case 'message':
      return urls.message(s.ticketId, s.id);
    case 'user':
      return urls.user(s.id);
    case 'group':
      return urls.group(s.id);
    case 'ticketField':
      return urls.ticketField(s.id);
  }
};

/** `fields`: the custom field definitions now (an admin sees them all). */
const dataRepresentation = (
  urls: Urls,
  d: EventData,
  fields: readonly TicketFieldDefinition[],
): Record<string, unknown> => {
  switch (d.resource) {
    case 'ticket':
      return ticketRepresentation(urls, {
        ticket: d.ticket,
        related: {},
        allowedTransitions: allowedTransitions(d.ticket.state, d.ticket.deletedAt !== null, 'admin'),
        fields,
      });
    case 'ticketField':
      return ticketFieldRepresentation(urls, d.field);
    case 'message':
      return messageRepresentation(urls, d.message);
    case 'user':
      return userRepresentation(urls, d.user);
    case 'group':
      return groupRepresentation(urls, d.group);
  }
};

const actorRepresentation = (urls: Urls, a: EventActor): Record<string, unknown> => {
  if (a.type === 'system') return { type: 'system' };
  const user = { type: 'user', id: a.id, url: urls.user(a.id) };
  return a.token === undefined ? user : { ...user, token: { id: a.token.id, name: a.token.name } };
};

/** The API's name of an event's resource type. */
const resourceType = (s: EventSubject): string => (s.resource === 'ticketField' ? 'ticket_field' : s.resource);

export const eventRepresentation = (
  urls: Urls,
  e: StoredEvent,
  fields: readonly TicketFieldDefinition[],
): Record<string, unknown> => ({
  seq: e.seq,
  type: e.type,
  occurred_at: timestamp(e.occurredAt),
  resource: { type: resourceType(e.subject), id: e.subject.id, url: subjectUrl(urls, e.subject) },
  actor: actorRepresentation(urls, e.actor),
  data: e.data === null ? null : dataRepresentation(urls, e.data, fields),
});

/** A webhook delivery's body: the event as the feed shows it, compact JSON (the sender signs these bytes). */
export const webhookBody = (urls: Urls, e: StoredEvent, fields: readonly TicketFieldDefinition[]): string =>
  JSON.stringify(eventRepresentation(urls, e, fields));
