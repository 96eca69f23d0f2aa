import type { Page } from '@support/application';
import { compareTickets, completeSort, type SortRule, type Ticket, type TicketFilter } from '@support/domain';
import type { SearchPlanChoice } from '../options.js';
import { candidatesOf, everyLiveTicket, type Candidates } from './candidates.js';
import { walkInOrder } from './index-walk.js';
import { PageSink } from './page-sink.js';
import { ticketPredicate } from './ticket-predicate.js';
import type { TicketTable } from './ticket-table.js';

export interface SearchSettings {
  readonly searchPlan: SearchPlanChoice;
  readonly runSortLimit: number;
}

/**
 * Sorting the candidates costs about c·log c; walking an index until the page is full costs
 * about (offset + limit) × live / total when matches are spread evenly. Walking is cheap for
 * common matches and sorting for rare ones, which the walk may have to look for far.
 */
const prefersSort = (candidates: number, total: number, need: number, live: number): boolean =>
  candidates * Math.log2(candidates + 2) <= (2 * need * live) / Math.max(1, total);

const smallestOf = (sources: readonly Candidates[]): Candidates =>
  sources.reduce((a, b) => (b.size < a.size ? b : a));

/**
 * One page of the live tickets the filter selects, in the complete order of `sort`, and their
 * total. The total comes from candidate-set sizes (one condition) or from testing the smallest
 * candidate set (several); the page from sorting the candidates or from walking a sort index,
 * whichever is cheaper, so the work follows the page and the matches, not the store.
 */
export const searchTickets = (
  table: TicketTable,
  settings: SearchSettings,
  filter: TicketFilter,
  sort: readonly SortRule[],
  offset: number,
  limit: number,
): Page<Ticket> => {
  const rules = completeSort(sort);
  const accept = ticketPredicate(filter, table.words);
  const sources = candidatesOf(table, filter);
  const everyLive = sources.length === 0;
  const source = everyLive ? everyLiveTicket(table) : smallestOf(sources);

  let candidates: Ticket[] | null = null;
  let total = source.size;
  if (sources.length > 1) {
    candidates = matchingTickets(table, source, accept);
    total = candidates.length;
  }
  const start = Math.max(0, offset);
  if (limit <= 0 || start >= total) return { items: [], total };

  const sortCandidates =
    settings.searchPlan === 'cost'
      ? !everyLive && prefersSort(source.size, total, start + limit, table.liveCount)
      : settings.searchPlan === 'sort-matches';
  if (sortCandidates) {
    const all = (candidates ?? matchingTickets(table, source, accept)).sort(compareTickets(rules));
    return { items: all.slice(start, start + limit), total };
  }
  const sink = new PageSink(start, limit);
  walkInOrder({ order: table.order, row: (id) => table.row(id), runSortLimit: settings.runSortLimit }, rules, accept, everyLive, sink);
  return { items: sink.items, total };
};

const matchingTickets = (table: TicketTable, source: Candidates, accept: (t: Ticket) => boolean): Ticket[] => {
  const out: Ticket[] = [];
  source.forEach((id) => {
    const t = table.row(id);
    if (accept(t)) out.push(t);
  });
  return out;
};
