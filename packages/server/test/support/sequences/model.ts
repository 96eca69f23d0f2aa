import {
  compareTickets,
  matchesTicket,
  pageOffset,
  searchTerms,
  ticketFilter,
  ticketOrder,
  ticketUpgrades,
  ticketWords,
  type SortRule,
  type Ticket,
  type TicketId,
  type TicketState,
  type UserId,
  noQueueQuery,
} from '@support/domain';

// What the service must hold after a sequence of writes, kept by the test beside it: the
// users, groups, tickets and messages, the change feed's newest seq, and the ETag last seen
// for each resource. Which tickets a list shows, and in what order, is the domain's reference
// filter and order (matchesTicket, compareTickets over ticketFilter/ticketOrder), the rule
// every store is held to; the rest (who sees what, what a write changes and which events it
// appends) is written out here from the contract, so the model does not share the service's code.

export type Role = 'customer' | 'agent' | 'admin';

export interface MUser {
  readonly id: number;
  name: string;
  email: string;
  role: Role;
  groups: number[];
  /** Logged in once when made; null for the first admin (the harness holds its token). */
  token: string | null;
}

export interface MGroup {
  readonly id: number;
  name: string;
  description: string;
}

export interface MMessage {
  readonly ticketId: number;
  readonly number: number;
  body: string;
  readonly internal: boolean;
  deleted: boolean;
}

/** A ticket as the domain's reference functions read it. */
export type MTicket = { -readonly [K in keyof Ticket]: Ticket[K] };

export interface Model {
  now: number;
  readonly users: Map<number, MUser>;
  readonly groups: Map<number, MGroup>;
  readonly tickets: Map<number, MTicket>;
  readonly messages: MMessage[];
  /** The newest seq of the change feed, as read after the last step. */
  seq: number;
  /** The ETag an admin last got for a resource path (or list), with the model's view of it then. */
  readonly etags: Map<string, { readonly etag: string; readonly view: string }>;
}

/** One change a step makes: an event of the feed, `<kind>.<created|updated|deleted>` on a path. */
export interface Change {
  readonly type: string;
  readonly path: string;
}

export const firstAdminId = 1;

export const newModel = (now: number): Model => ({
  now,
  users: new Map([
    [
      firstAdminId,
      { id: firstAdminId, name: 'Administrator', email: 'admin@example.com', role: 'admin', groups: [], token: null },
    ],
  ]),
  groups: new Map(),
  tickets: new Map(),
  messages: [],
  seq: 1,
  etags: new Map(),
});

export const ticketPath = (id: number): string => `/v1/tickets/${id}`;
export const userPath = (id: number): string => `/v1/users/${id}`;
export const groupPath = (id: number): string => `/v1/groups/${id}`;
export const messagePath = (ticketId: number, n: number): string => `/v1/tickets/${ticketId}/messages/${n}`;

const emailKey = (e: string): string => e.toLowerCase();
const nameKey = (n: string): string => n.toLowerCase();

export const emailTaken = (m: Model, email: string, except: number | null = null): boolean =>
  [...m.users.values()].some((u) => u.id !== except && emailKey(u.email) === emailKey(email));

export const groupNameTaken = (m: Model, name: string, except: number | null = null): boolean =>
  [...m.groups.values()].some((g) => g.id !== except && nameKey(g.name) === nameKey(name));

/** Picks one of `items` by a generated number (commands are generated before the model exists). */
export const pick = <T>(items: readonly T[], n: number): T | undefined =>
  items.length === 0 ? undefined : items[n % items.length];

export const liveTickets = (m: Model): MTicket[] => [...m.tickets.values()].filter((t) => t.deletedAt === null);

/** A write moves updated_at forward to now, never back. */
export const touch = (t: { updatedAt: number }, now: number): void => {
  t.updatedAt = Math.max(t.updatedAt, now);
};

/** A renamed customer: every live ticket of theirs changes (customer_name). */
export const renameCustomer = (m: Model, userId: number, name: string): Change[] =>
  liveTickets(m)
    .filter((t) => t.customerId === userId && t.customerName !== name)
    .map((t) => {
      t.customerName = name;
      touch(t, m.now);
      return { type: 'ticket.updated', path: ticketPath(t.id) };
    });

/** A user made a customer, or deleted: the live tickets assigned to them lose their assignee. */
export const unassign = (m: Model, userId: number): Change[] =>
  liveTickets(m)
    .filter((t) => t.assignedUserId === userId)
    .map((t) => {
      t.assignedUserId = null;
      touch(t, m.now);
      return { type: 'ticket.updated', path: ticketPath(t.id) };
    });

/** A deleted group: it leaves its members and its live tickets. */
export const removeGroup = (m: Model, groupId: number): Change[] => {
  const changes: Change[] = [];
  for (const u of m.users.values()) {
    if (!u.groups.includes(groupId)) continue;
    u.groups = u.groups.filter((g) => g !== groupId);
    changes.push({ type: 'user.updated', path: userPath(u.id) });
  }
  for (const t of liveTickets(m)) {
    if (t.groupId !== groupId) continue;
    t.groupId = null;
    touch(t, m.now);
    changes.push({ type: 'ticket.updated', path: ticketPath(t.id) });
  }
  return changes;
};

/** The contract's state machine: open<->pending, open/pending->closed, closed->open. */
export const canMove = (from: TicketState, to: TicketState): boolean =>
  from === to || !(from === 'closed' && to === 'pending');

export const newTicket = (
  id: number,
  fields: Partial<MTicket> & Pick<MTicket, 'subject' | 'customerId' | 'customerName'>,
  now: number,
): MTicket => ({
  ...ticketUpgrades,
  id: id as TicketId,
  summary: '',
  state: 'open',
  priority: 'normal',
  assignedUserId: null,
  groupId: null,
  tags: [],
  customFields: {},
  createdAt: now,
  updatedAt: now,
  closedAt: null,
  deletedAt: null,
  version: 1,
  ...fields,
});

export interface ListQuery {
  readonly recentlyClosed: boolean;
  readonly states: readonly TicketState[] | null;
  readonly sort: readonly SortRule[];
  readonly q: string;
  readonly page: number;
  readonly perPage: number;
}

/** The ids a ticket list must answer, in order, and its total: the domain's reference rules. */
export const expectedTickets = (
  m: Model,
  query: ListQuery,
  customerId: number | null,
): { ids: number[]; total: number } => {
  const typed = {
    states: query.states,
    recentlyClosed: query.recentlyClosed,
    terms: searchTerms(query.q),
    sort: ticketOrder(query.sort, query.recentlyClosed),
    embed: [],
    queue: noQueueQuery,
    custom: [],
    customKeys: [],
    page: query.page,
    perPage: query.perPage,
  };
  const filter = ticketFilter(typed, customerId === null ? null : (customerId as UserId), m.now);
  const all = [...m.tickets.values()]
    .filter((t) => matchesTicket(filter, t, new Set(ticketWords(t))))
    .sort(compareTickets(typed.sort));
  const offset = pageOffset(typed);
  return { ids: all.slice(offset, offset + query.perPage).map((t) => t.id), total: all.length };
};

/** The API's name of a sort field (the contract's snake_case; the domain's are camelCase). */
const wireSortField = (field: SortRule['field']): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The query string of a list query (what the client sends for it). */
export const listQueryString = (q: ListQuery): string => {
  const parts: string[] = [`per_page=${q.perPage}`, `page=${q.page}`];
  if (q.states !== null) parts.push(`state=${q.states.join(',')}`);
  if (q.sort.length > 0)
    parts.push(`sort=${q.sort.map((r) => `${r.direction === 'desc' ? '-' : ''}${wireSortField(r.field)}`).join(',')}`);
  if (q.q !== '') parts.push(`q=${encodeURIComponent(q.q)}`);
  return parts.join('&');
};

/** What an admin must read for a ticket: the fields a step can change. */
export const ticketView = (t: MTicket): Record<string, unknown> => ({
  id: t.id,
  subject: t.subject,
  summary: t.summary,
  state: t.state,
  priority: t.priority,
  customer_name: t.customerName,
  customer: t.customerId,
  assigned_user: t.assignedUserId,
  group: t.groupId,
  tags: [...t.tags],
  created_at: new Date(t.createdAt).toISOString(),
  updated_at: new Date(t.updatedAt).toISOString(),
  closed_at: t.closedAt === null ? null : new Date(t.closedAt).toISOString(),
  allowed_transitions: (['open', 'pending', 'closed'] as const).filter((s) => s !== t.state && canMove(t.state, s)),
});

export const userView = (u: MUser): Record<string, unknown> => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role,
  groups: [...u.groups],
});
export const groupView = (g: MGroup): Record<string, unknown> => ({
  id: g.id,
  name: g.name,
  description: g.description,
});
