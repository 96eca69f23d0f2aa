import {
  byPosition,
  compareTickets,
  ticketFieldEvent,
  type TicketFieldDefinition,
  emailKey,
  groupNameKey,
  matchesTicket,
  ticketWords,
  type Group,
  type Message,
  type Ticket,
  type User,
  groupDeletedEvent,
  type EventActor,
  groupEvent,
  messageEvent,
  ticketEvent,
  userDeletedEvent,
  userEvent,
} from '@support/domain';
import type { FollowUp, Store } from '../../src/index.js';
import { page, type NaiveState } from './naive-state.js';
import { attachUploads, dropAttachments, refusedUploads } from './naive-file-ports.js';

/** The naive store's tickets, messages, users and groups (see naive-store.ts). */
export const contentPorts = (
  s: NaiveState,
): Pick<Store, 'tickets' | 'ticketFields' | 'messages' | 'users' | 'groups'> => {
  const { tickets, messages, users, groups, mkey, record, followUp } = s;
  const fields = new Map<number, TicketFieldDefinition>();
  return {
    ticketFields: {
      list: () => Promise.resolve([...fields.values()].sort(byPosition)),
      findById: (id) => Promise.resolve(fields.get(id) ?? null),
      insert: (f, limit, by) => {
        if ([...fields.values()].some((d) => d.key === f.key)) return Promise.resolve('key_taken' as const);
        if (fields.size >= limit) return Promise.resolve('too_many' as const);
        fields.set(f.id, f);
        record(ticketFieldEvent('created', f, f.updatedAt, by));
        return Promise.resolve('ok' as const);
      },
      update: (f, v, by) => {
        if (fields.get(f.id)?.version !== v) return Promise.resolve(false);
        fields.set(f.id, f);
        record(ticketFieldEvent('updated', f, f.updatedAt, by));
        return Promise.resolve(true);
      },
      delete: (id, now, by) => {
        const f = fields.get(id);
        if (f === undefined) return Promise.resolve(false);
        fields.delete(id);
        record(ticketFieldEvent('deleted', f, now, by));
        return Promise.resolve(true);
      },
    },
    tickets: {
      insert: (t: Ticket, by?: EventActor) => {
        tickets.set(t.id, structuredClone(t));
        record(ticketEvent('created', t, t.updatedAt, by));
        return Promise.resolve();
      },
      findById: (id: number) => Promise.resolve(structuredClone(tickets.get(id) ?? null)),
      update: (t: Ticket, v: number, by?: EventActor) => {
        if (tickets.get(t.id)?.version !== v) return Promise.resolve(false);
        tickets.set(t.id, structuredClone(t));
        record(ticketEvent('updated', t, t.updatedAt, by));
        return Promise.resolve(true);
      },
      search: (filter, sort, offset, limit) => {
        const all = [...tickets.values()]
          .filter((t) => matchesTicket(filter, t, new Set(ticketWords(t))))
          .sort(compareTickets(sort));
        return page(all, offset, limit);
      },
      countHolding: (fieldId, values) =>
        Promise.resolve(
          [...tickets.values()].filter((t) => {
            const v = t.customFields[fieldId];
            return (
              t.deletedAt === null &&
              (Array.isArray(v)
                ? (v as readonly string[]).some((x) => values.includes(x))
                : values.includes(v as string))
            );
          }).length,
        ),
    },
    messages: {
      insert: (m: Message, by?: EventActor) => {
        const refused = refusedUploads(s, m);
        if (refused.length > 0) return Promise.resolve(refused);
        attachUploads(s, m);
        messages.set(mkey(m.ticketId, m.number), m);
        record(messageEvent('created', m, m.updatedAt, by));
        return Promise.resolve([]);
      },
      find: (t, n) => Promise.resolve(messages.get(mkey(t, n)) ?? null),
      update: (m: Message, v: number, by?: EventActor) => {
        const stored = messages.get(mkey(m.ticketId, m.number));
        if (stored?.version !== v) return Promise.resolve(false);
        dropAttachments(s, stored, m);
        messages.set(mkey(m.ticketId, m.number), m);
        record(messageEvent('updated', m, m.updatedAt, by));
        return Promise.resolve(true);
      },
      list: (ticketId, internal, offset, limit) => {
        const all = [...messages.values()]
          .filter((m) => m.ticketId === ticketId && m.deletedAt === null && (internal || !m.internal))
          .sort((a, b) => a.number - b.number);
        return page(all, offset, limit);
      },
      attachments: (ticketId, internal, offset, limit) => {
        const all = [...messages.values()]
          .filter((m) => m.ticketId === ticketId && m.deletedAt === null && (internal || !m.internal))
          .sort((a, b) => a.number - b.number)
          .flatMap((m) => m.attachments.map((attachment) => ({ number: m.number, authorId: m.authorId, attachment })));
        return page(all, offset, limit);
      },
    },
    users: {
      insert: (u: User, by?: EventActor) => {
        if ([...users.values()].some((x) => emailKey(x.email) === emailKey(u.email)))
          return Promise.resolve('email_taken' as const);
        users.set(u.id, u);
        record(userEvent('created', u, u.updatedAt, by));
        return Promise.resolve('ok' as const);
      },
      findById: (id) => Promise.resolve(users.get(id) ?? null),
      findByEmail: (email) =>
        Promise.resolve([...users.values()].find((u) => emailKey(u.email) === emailKey(email)) ?? null),
      findByIds: (ids) => Promise.resolve([...users.values()].filter((u) => ids.includes(u.id))),
      update: (u: User, v: number, by?: EventActor, due?: readonly FollowUp[]) => {
        if (users.get(u.id)?.version !== v) return Promise.resolve('version_mismatch' as const);
        if ([...users.values()].some((x) => x.id !== u.id && emailKey(x.email) === emailKey(u.email)))
          return Promise.resolve('email_taken' as const);
        users.set(u.id, u);
        record(userEvent('updated', u, u.updatedAt, by));
        followUp(due, by);
        return Promise.resolve('ok' as const);
      },
      delete: (id, now, by, due) => {
        if (!users.delete(id)) return Promise.resolve(false);
        record(userDeletedEvent(id, now, by));
        followUp(due, by);
        return Promise.resolve(true);
      },
      list: (groupId, offset, limit) => {
        const all = [...users.values()]
          .filter((u) => groupId === null || u.groupIds.includes(groupId))
          .sort((a, b) => a.id - b.id);
        return page(all, offset, limit);
      },
      count: () => Promise.resolve(users.size),
    },
    groups: {
      insert: (g: Group, by?: EventActor) => {
        if ([...groups.values()].some((x) => groupNameKey(x.name) === groupNameKey(g.name)))
          return Promise.resolve('name_taken' as const);
        groups.set(g.id, g);
        record(groupEvent('created', g, g.updatedAt, by));
        return Promise.resolve('ok' as const);
      },
      findById: (id) => Promise.resolve(groups.get(id) ?? null),
      findByIds: (ids) => Promise.resolve([...groups.values()].filter((g) => ids.includes(g.id))),
      update: (g: Group, v: number, by?: EventActor) => {
        if (groups.get(g.id)?.version !== v) return Promise.resolve('version_mismatch' as const);
        if ([...groups.values()].some((x) => x.id !== g.id && groupNameKey(x.name) === groupNameKey(g.name)))
          return Promise.resolve('name_taken' as const);
        groups.set(g.id, g);
        record(groupEvent('updated', g, g.updatedAt, by));
        return Promise.resolve('ok' as const);
      },
      delete: (id, now, by, due) => {
        if (!groups.delete(id)) return Promise.resolve(false);
        record(groupDeletedEvent(id, now, by));
        followUp(due, by);
        return Promise.resolve(true);
      },
      list: (offset, limit) =>
        page(
          [...groups.values()].sort((a, b) => a.id - b.id),
          offset,
          limit,
        ),
    },
  };
};
