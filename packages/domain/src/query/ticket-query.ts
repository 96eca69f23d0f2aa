import {
  customSortFieldId,
  customSortKey,
  customWords,
  isCustomSortField,
  matchesCustom,
  type CustomCondition,
  type CustomFilterParam,
  type CustomSortField,
} from '../custom-fields/query.js';
import { compareCustomScalars } from '../custom-fields/value.js';
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
/** `sort=cf.<key>` as a request names it, before the key is resolved to its field's id (`CustomSortField`). */
export type CustomSortKey = `cf.${string}`;
/** What a store sorts by: a ticket field, or a custom field by id. */
export type RuleField = SortField | CustomSortField;
export interface SortRule {
  readonly field: RuleField | CustomSortKey;
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
  /** The custom field filters (`cf.<key>...`), resolved against the definitions by the use case. */
  readonly custom: readonly CustomFilterParam[];
  /** The custom fields `fields=cf.<key>` names (checked against the definitions by the use case). */
  readonly customKeys: readonly string[];
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
  /** Custom field conditions (custom-fields/query.ts), all of which must hold; absent: none. */
  readonly custom?: readonly CustomCondition[];
  /** The (text) custom fields whose words count as the ticket's for `words`; absent: none. */
  readonly searchFields?: readonly number[];
}

/** The filter of every live ticket (no condition), to build other filters from. */
export const allLiveTickets: TicketFilter = {
  states: null,
  customerId: null,
  words: [],
  closedSince: null,
  custom: [],
  searchFields: [],
  ...noQueueConditions,
};

/** The custom part of a store filter: its conditions, and the fields whose words `q` searches. */
export interface CustomFilter {
  readonly custom: readonly CustomCondition[];
  readonly searchFields: readonly number[];
}

/**
 * The store filter for a query, as seen by a caller (`callerId`, who `assigned_user_id=me`
 * names; a customer, `customerId`, sees only their own tickets) at `now`.
 */
export const ticketFilter = (
  query: TicketQuery,
  customerId: UserId | null,
  now: number,
  callerId: UserId | null = customerId,
  custom: CustomFilter = { custom: [], searchFields: [] },
): TicketFilter => {
  const queue = queueConditions(query.queue, callerId, customerId);
  const { custom: conditions, searchFields } = custom;
  if (!query.recentlyClosed)
    return {
      states: query.states,
      customerId,
      words: query.terms,
      closedSince: null,
      custom: conditions,
      searchFields,
      ...queue,
    };
  const states: TicketState[] = query.states === null || query.states.includes('closed') ? ['closed'] : [];
  return {
    states,
    customerId,
    words: query.terms,
    closedSince: now - recentlyClosedWindowMs,
    custom: conditions,
    searchFields,
    ...queue,
  };
};

/** The reference semantics of a filter; every store must select exactly these tickets. */
export const matchesTicket = (filter: TicketFilter, t: Ticket, words: ReadonlySet<string>): boolean =>
  t.deletedAt === null &&
  (filter.states === null || filter.states.includes(t.state)) &&
  (filter.customerId === null || t.customerId === filter.customerId) &&
  (filter.closedSince === null || (t.closedAt !== null && t.closedAt >= filter.closedSince)) &&
  matchesQueue(filter, t) &&
  (filter.custom ?? []).every((c) => matchesCustom(c, t.customFields)) &&
  (filter.words.every((w) => words.has(w)) || matchesWithCustomWords(filter, t, words));

const matchesWithCustomWords = (filter: TicketFilter, t: Ticket, words: ReadonlySet<string>): boolean => {
  const fields = filter.searchFields ?? [];
  if (fields.length === 0) return false;
  const all = new Set([...words, ...customWords(t.customFields, fields)]);
  return filter.words.every((w) => all.has(w));
};

/** The id of the custom field a store sorts by; a rule still naming a key is a bug (the use case resolves keys). */
export const sortFieldId = (field: SortRule['field']): number | null => {
  if (isCustomSortField(field)) return customSortFieldId(field);
  if (field.startsWith('cf.'))
    throw new Error(`sort by ${field}: a custom field's key is resolved before a store sorts`);
  return null;
};

/** The value a ticket is sorted by for a field: ranks for state and priority, epoch ms for times, a custom field's value. */
export const sortKey = (t: Ticket, field: SortRule['field']): number | string | boolean | null => {
  const custom = sortFieldId(field);
  if (custom !== null) return customSortKey(t.customFields, custom);
  switch (field as SortField) {
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

/** Orders sort keys as MongoDB does: null before any value, text by code point, false before true. */
export const compareKeys = (a: number | string | boolean | null, b: number | string | boolean | null): number => {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return compareCustomScalars(a, b);
  return (a as number) - (b as number);
};

/**
 * The order of two keys under one rule: the keys' order in its direction, except that a
 * custom field's unset value (null) comes last in both directions (contract §10).
 */
export const compareByRule = (
  rule: SortRule,
  a: number | string | boolean | null,
  b: number | string | boolean | null,
): number => {
  if ((a === null || b === null) && isCustomSortField(rule.field)) return a === b ? 0 : a === null ? 1 : -1;
  const c = compareKeys(a, b);
  return rule.direction === 'asc' ? c : -c;
};

/** The reference order of a sort; every store must list tickets in exactly this order. */
export const compareTickets =
  (sort: readonly SortRule[]) =>
  (a: Ticket, b: Ticket): number => {
    for (const rule of sort) {
      const c = compareByRule(rule, sortKey(a, rule.field), sortKey(b, rule.field));
      if (c !== 0) return c;
    }
    return 0;
  };
