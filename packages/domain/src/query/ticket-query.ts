import * as E from 'fp-ts/lib/Either.js';
import { invalidQuery, type DomainError, type QueryIssue } from '../errors.js';
import type { UserId } from '../ids.js';
import { priorityRank } from '../priority.js';
import { compareText } from '../text.js';
import type { Ticket } from '../ticket.js';
import { stateRank, ticketStates, type TicketState } from '../ticket-state.js';
import { tokenize } from '../tokenizer.js';
import { parsePage, type PageRequest } from './page.js';
import { commaList, issue, param, type QueryParams } from './params.js';
import { parseRepresentationOptions, type RepresentationOptions } from './representation.js';

export const sortFields = ['id', 'subject', 'state', 'priority', 'created_at', 'updated_at', 'closed_at'] as const;
export type SortField = (typeof sortFields)[number];
export type SortDirection = 'asc' | 'desc';
export interface SortRule {
  readonly field: SortField;
  readonly direction: SortDirection;
}

/** The saved search: closed tickets whose closed_at lies within this window before now. */
export const recentlyClosedAlias = 'recently_closed';
export const recentlyClosedWindowMs = 7 * 24 * 60 * 60 * 1000;

export interface TicketQuery extends RepresentationOptions, PageRequest {
  /** null: every state. */
  readonly states: readonly TicketState[] | null;
  readonly recentlyClosed: boolean;
  /** Search words (already folded); a ticket must contain every one. */
  readonly terms: readonly string[];
  /** Complete order: always ends with the id tie-breaker. */
  readonly sort: readonly SortRule[];
}

const isSortField = (s: string): s is SortField => (sortFields as readonly string[]).includes(s);
const isState = (s: string): s is TicketState => (ticketStates as readonly string[]).includes(s);

const parseStates = (params: QueryParams, issues: QueryIssue[]): TicketState[] | null => {
  const raw = param(params, 'state');
  if (raw === undefined) return null;
  const out: TicketState[] = [];
  for (const s of commaList('state', raw, issues)) {
    if (!isState(s)) issues.push(issue('state', s, `unknown state "${s}"; states are: ${ticketStates.join(', ')}`));
    else if (!out.includes(s)) out.push(s);
  }
  return out;
};

/**
 * The id tie-breaker makes every order total; it runs in the direction of the last rule,
 * so `-priority` lists the newest-created of equal tickets first.
 */
export const completeSort = (rules: readonly SortRule[]): SortRule[] => {
  const idIndex = rules.findIndex((r) => r.field === 'id');
  if (idIndex >= 0) return rules.slice(0, idIndex + 1);
  const last = rules[rules.length - 1];
  return [...rules, { field: 'id', direction: last?.direction ?? 'asc' }];
};

const parseSort = (params: QueryParams, recentlyClosed: boolean, issues: QueryIssue[]): SortRule[] => {
  const raw = param(params, 'sort');
  const fallback: SortRule[] = [{ field: recentlyClosed ? 'closed_at' : 'created_at', direction: 'desc' }];
  if (raw === undefined) return completeSort(fallback);
  const rules: SortRule[] = [];
  for (const item of commaList('sort', raw, issues)) {
    const descending = item.startsWith('-');
    const name = descending || item.startsWith('+') ? item.slice(1) : item;
    if (!isSortField(name)) {
      issues.push(issue('sort', item, `cannot sort by "${name}"; sortable fields are: ${sortFields.join(', ')}`));
    } else if (rules.some((r) => r.field === name)) {
      issues.push(issue('sort', item, `sorts by "${name}" more than once`));
    } else rules.push({ field: name, direction: descending ? 'desc' : 'asc' });
  }
  return completeSort(rules.length > 0 ? rules : fallback);
};

export interface TicketQueryOptions {
  /** Set when the request came through /tickets/recently_closed. */
  readonly alias?: typeof recentlyClosedAlias;
}

/**
 * Reads the ticket list's query parameters (state, sort, q, fields, embed, page, per_page).
 * Every bad value is reported, each naming its parameter; unknown parameters are ignored.
 */
export const parseTicketQuery = (params: QueryParams, options: TicketQueryOptions = {}): E.Either<DomainError, TicketQuery> => {
  const issues: QueryIssue[] = [];
  const q = param(params, 'q') ?? '';
  const recentlyClosed = options.alias === recentlyClosedAlias || q.trim() === recentlyClosedAlias;
  const terms = q.trim() === recentlyClosedAlias ? [] : [...new Set(tokenize(q))];
  const states = parseStates(params, issues);
  const sort = parseSort(params, recentlyClosed, issues);
  const representation = parseRepresentationOptions(params, issues);
  const page = parsePage(params, issues);
  if (issues.length > 0) return E.left(invalidQuery(issues));
  return E.right({ states, recentlyClosed, terms, sort, ...representation, ...page });
};

/** What a store filters tickets by. Deleted tickets never match. */
export interface TicketFilter {
  /** null: every state; an empty list matches nothing. */
  readonly states: readonly TicketState[] | null;
  /** Set for a customer, who sees only their own tickets. */
  readonly customerId: UserId | null;
  /** Every word must be one of the ticket's words. */
  readonly words: readonly string[];
  /** closed_at at or after this instant (epoch ms); null: no bound. */
  readonly closedSince: number | null;
}

/** The store filter for a query, as seen by a caller (a customer sees only their tickets) at `now`. */
export const ticketFilter = (query: TicketQuery, customerId: UserId | null, now: number): TicketFilter => {
  if (!query.recentlyClosed) return { states: query.states, customerId, words: query.terms, closedSince: null };
  const states: TicketState[] = query.states === null || query.states.includes('closed') ? ['closed'] : [];
  return { states, customerId, words: query.terms, closedSince: now - recentlyClosedWindowMs };
};

/** The reference semantics of a filter; every store must select exactly these tickets. */
export const matchesTicket = (filter: TicketFilter, t: Ticket, words: ReadonlySet<string>): boolean =>
  t.deletedAt === null &&
  (filter.states === null || filter.states.includes(t.state)) &&
  (filter.customerId === null || t.customerId === filter.customerId) &&
  (filter.closedSince === null || (t.closedAt !== null && t.closedAt >= filter.closedSince)) &&
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
    case 'created_at':
      return t.createdAt;
    case 'updated_at':
      return t.updatedAt;
    case 'closed_at':
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
