import {
  allowedTransitions,
  type EventActor,
  type EventData,
  type EventSubject,
  type StoredEvent,
} from '@support/domain';
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
  }
};

const dataRepresentation = (urls: Urls, d: EventData): Record<string, unknown> => {
  switch (d.resource) {
    case 'ticket':
      return ticketRepresentation(urls, {
        ticket: d.ticket,
        related: {},
        allowedTransitions: allowedTransitions(d.ticket.state, d.ticket.deletedAt !== null, 'admin'),
      });
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

export const eventRepresentation = (urls: Urls, e: StoredEvent): Record<string, unknown> => ({
  seq: e.seq,
  type: e.type,
  occurred_at: timestamp(e.occurredAt),
  resource: { type: e.subject.resource, id: e.subject.id, url: subjectUrl(urls, e.subject) },
  actor: actorRepresentation(urls, e.actor),
  data: e.data === null ? null : dataRepresentation(urls, e.data),
});

/** A webhook delivery's body: the event as the feed shows it, compact JSON (the sender signs these bytes). */
export const webhookBody = (urls: Urls, e: StoredEvent): string => JSON.stringify(eventRepresentation(urls, e));
