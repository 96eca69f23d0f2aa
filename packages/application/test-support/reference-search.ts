import {
  compareTickets,
  completeSort,
  type CompleteSort,
  matchesTicket,
  ticketWords,
  tokenize,
  type SortField,
  type SortRule,
  type Ticket,
  type TicketFilter,
  noQueueConditions,
} from '@support/domain';
import type { Page } from '../src/index.js';

// What a ticket search must answer, from the domain's reference rules alone.

/** A filter that selects every live ticket, with the given conditions added. */
export const aFilter = (spec: Partial<TicketFilter> = {}): TicketFilter => ({
  states: null,
  customerId: null,
  words: [],
  closedSince: null,
  custom: [],
  searchFields: [],
  ...noQueueConditions,
  ...spec,
});

/** The search words of a query text, as the domain makes them from `q`. */
export const wordsOf = (q: string): string[] => [...new Set(tokenize(q))];

/** A complete sort from `sort` parameter items ('-priority', 'created_at'), as the domain completes it. */
export const sortOf = (...items: readonly string[]): CompleteSort =>
  completeSort(
    items.map((item) => ({
      field: item.replace(/^[-+]/, '') as SortField,
      direction: item.startsWith('-') ? 'desc' : 'asc',
    })),
  );

/** The page the domain says `search(filter, sort, offset, limit)` answers over these tickets. */
export const expectedSearch = (
  tickets: readonly Ticket[],
  filter: TicketFilter,
  sort: readonly SortRule[],
  offset: number,
  limit: number,
): Page<Ticket> => {
  const all = tickets.filter((t) => matchesTicket(filter, t, new Set(ticketWords(t)))).sort(compareTickets(sort));
  return { items: all.slice(offset, offset + limit), total: all.length };
};

/** A short readable name of a sort, for test titles. */
export const sortName = (sort: readonly SortRule[]): string =>
  sort.map((r) => `${r.direction === 'desc' ? '-' : ''}${r.field}`).join(',');
