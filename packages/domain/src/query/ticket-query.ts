import type { UserId } from '../ids.js';
import { priorityRank } from '../priority.js';
import { compareText } from '../text.js';
import type { Ticket } from '../ticket.js';
import { stateRank, type TicketState } from '../ticket-state.js';
import { tokenize } from '../tokenizer.js';
import type { PageRequest } from './page.js';
import {
  matchesQueue,
  noQueueConditions,
  queueConditions,
  type QueueConditions,
  type QueueQuery,
} from './queue-filter.js';

// The rules of a ticket list (contract §5) as typed values: which tickets (states, the
// recently-closed saved search, search words), in which order, which page, and which
// related resources come with each ticket. Reading them from a query string is the edge's.

export const sortFields = ['id', 'subject', 'state', 'priority', 'createdAt', 'updatedAt', 'closedAt'] as const;
export type SortField = (typeof sortFields)[number];
export type SortDirection = 'asc' | 'desc';
export interface SortRule {
  readonly field: SortField;
  readonly direction: SortDirection;
}

/** The resources a ticket links to, which a read may load with it (embed). */
export const ticketRelations = ['customer', 'assignedUser', 'group'] as const;
export type TicketRelation = (typeof ticketRelations)[number];

/** The saved search: closed tickets whose closed_at lies within this window before now. */
export const recentlyClosedWindowMs = 7 * 24 * 60 * 60 * 1000;

export interface TicketQuery extends PageRequest {
  /** null: every state. */
  readonly states: readonly TicketState[] | null;
  /** The saved search "recently closed". */
  readonly recentlyClosed: boolean;
  /** Search words (already folded); a ticket must contain every one. */
  readonly terms: readonly string[];
  /** The order of the list, complete (see ticketOrder). */
  readonly sort: CompleteSort;
  /** Related resources to load with each ticket. */
  readonly embed: readonly TicketRelation[];
  /** The queue filters (assignee, group, customer, priority, tags, updated since). */
  readonly queue: QueueQuery;
}

/** The search words of a query text: the tokenizer's words (folded), each once. */
export const searchTerms = (text: string): string[] => [...new Set(tokenize(text))];

export interface CompleteSortBrand {
  readonly CompleteSort: unique symbol;
}
/**
 * A total order: its rules end with the id tie-breaker. Only completeSort makes one, so the
 * order is completed in one place (ticketOrder, at the edge) and a store takes it as it is.
 */
export type CompleteSort = readonly SortRule[] & CompleteSortBrand;

/**
 * The id tie-breaker makes every order total; it runs in the direction of the last rule,
 * so `-priority` lists the newest-created of equal tickets first.
 */
export const completeSort = (rules: readonly SortRule[]): CompleteSort => {
  const idIndex = rules.findIndex((r) => r.field === 'id');
  if (idIndex >= 0) return rules.slice(0, idIndex + 1) as readonly SortRule[] as CompleteSort;
  const last = rules[rules.length - 1];
  return [...rules, { field: 'id', direction: last?.direction ?? 'asc' }] as readonly SortRule[] as CompleteSort;
};

/**
 * The order of a list: the rules asked for, or else newest first (the saved search: the
 * latest closed first), completed by the id tie-breaker.
 */
export const ticketOrder = (rules: readonly SortRule[], recentlyClosed: boolean): CompleteSort =>
  completeSort(rules.length > 0 ? rules : [{ field: recentlyClosed ? 'closedAt' : 'createdAt', direction: 'desc' }]);

/** What a store filters tickets by. Deleted tickets never match. */
export interface TicketFilter extends QueueConditions {
  /** null: every state; an empty list matches nothing. */
  readonly states: readonly TicketState[] | null;
  /** Set for a customer, who sees only their own tickets. */
  readonly customerId: UserId | null;
  /** Every word must be one of the ticket's words. */
  readonly words: readonly string[];
  /** closed_at at or after this instant (epoch ms); null: no bound. */
  readonly closedSince: number | null;
}

/** The filter of every live ticket (no condition), to build other filters from. */
export const allLiveTickets: TicketFilter = {
  states: null,
  customerId: null,
  words: [],
  closedSince: null,
  ...noQueueConditions,
};

/**
 * The store filter for a query, as seen by a caller (`callerId`, who `assigned_user_id=me`
 * names; a customer, `customerId`, sees only their own tickets) at `now`.
 */
export const ticketFilter = (
  query: TicketQuery,
  customerId: UserId | null,
  now: number,
  callerId: UserId | null = customerId,
): TicketFilter => {
  const queue = queueConditions(query.queue, callerId, customerId);
  if (!query.recentlyClosed)
    return { states: query.states, customerId, words: query.terms, closedSince: null, ...queue };
  const states: TicketState[] = query.states === null || query.states.includes('closed') ? ['closed'] : [];
  return { states, customerId, words: query.terms, closedSince: now - recentlyClosedWindowMs, ...queue };
};

/** The reference semantics of a filter; every store must select exactly these tickets. */
export const matchesTicket = (filter: TicketFilter, t: Ticket, words: ReadonlySet<string>): boolean =>
  t.deletedAt === null &&
  (filter.states === null || filter.states.includes(t.state)) &&
  (filter.customerId === null || t.customerId === filter.customerId) &&
  (filter.closedSince === null || (t.closedAt !== null && t.closedAt >= filter.closedSince)) &&
  matchesQueue(filter, t) &&
  filter.words.every((w) => words.has(w));

/** The value a ticket is sorted by for a field: ranks for state and priority, epoch ms for times. */
export const sortKey = (t: Ticket, field: SortField): number | string | null => {
  switch (field) {
    case 'id':
      return t.id;
    case 'subject':
      return t.subject;
    case 'state':
      return stateRank(t.state);
    case 'priority':
      return priorityRank(t.priority);
    case 'createdAt':
      return t.createdAt;
    case 'updatedAt':
      return t.updatedAt;
    case 'closedAt':
      return t.closedAt;
  }
};

/** Orders sort keys as MongoDB does: null before any value, text by code point. */
export const compareKeys = (a: number | string | null, b: number | string | null): number => {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  return (a as number) - (b as number);
};

/** The reference order of a sort; every store must list tickets in exactly this order. */
export const compareTickets =
  (sort: readonly SortRule[]) =>
  (a: Ticket, b: Ticket): number => {
    for (const rule of sort) {
      const c = compareKeys(sortKey(a, rule.field), sortKey(b, rule.field));
      if (c !== 0) return rule.direction === 'asc' ? c : -c;
    }
    return 0;
  };
