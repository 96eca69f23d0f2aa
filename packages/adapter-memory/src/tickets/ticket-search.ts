import type { Page } from '@support/application';
import type { CompleteSort, Ticket, TicketFilter } from '@support/domain';
import type { SearchPlanChoice } from '../options.js';
import { candidatesOf, everyLiveTicket, idsOf, intersection, type Candidates } from './candidates.js';
import { sortIds } from './id-order.js';
import { walkInOrder } from './index-walk.js';
import { PageSink } from './page-sink.js';
import type { TicketTable } from './ticket-table.js';

export interface SearchSettings {
  readonly searchPlan: SearchPlanChoice;
  readonly runSortLimit: number;
}

/**
 * Sorting the matches costs about m·log m; walking an index until the page is full costs
 * about (offset + limit) × live / m id tests when matches are spread evenly. Walking is cheap
 * for common matches and sorting for rare ones, which the walk may have to look for far.
 */
const prefersSort = (matches: number, need: number, live: number): boolean =>
  matches * Math.log2(matches + 2) <= (2 * need * live) / Math.max(1, matches);

const smallestOf = (sources: readonly Candidates[]): Candidates =>
  sources.reduce((a, b) => (b.size < a.size ? b : a));

/**
 * One page of the live tickets the filter selects, in the complete order of `sort`, and their
 * total. No row is read to select: one condition's candidates are counted by their set's size,
 * several are intersected by id (sets, ranks and times from the table's facts, merged word
 * postings). The page comes from sorting the matching ids by their keys (numeric keys come
 * from the facts) or from walking a sort index and testing each id, whichever is cheaper, and
 * only the page's rows are read: the work follows the page and the matches (for several
 * conditions, the smallest condition's ids), not the store.
 */
export const searchTickets = (
  table: TicketTable,
  settings: SearchSettings,
  filter: TicketFilter,
  rules: CompleteSort,
  offset: number,
  limit: number,
): Page<Ticket> => {
  const sources = candidatesOf(table, filter);
  const everyLive = sources.length === 0;
  const source = everyLive ? everyLiveTicket(table) : smallestOf(sources);

  let matches: number[] | null = null;
  let total = source.size;
  if (sources.length > 1) {
    matches = intersection(sources);
    total = matches.length;
  }
  const start = Math.max(0, offset);
  if (limit <= 0 || start >= total) return { items: [], total };

  const sortMatches =
    settings.searchPlan === 'cost'
      ? !everyLive && prefersSort(total, start + limit, table.liveCount)
      : settings.searchPlan === 'sort-matches';
  const row = (id: number): Ticket => table.row(id);
  if (sortMatches) {
    const ids = matches ?? idsOf(source);
    const page = sortIds((id, field) => table.keyOf(id, field), ids, rules).slice(start, start + limit);
    return { items: page.map(row), total };
  }
  const sink = new PageSink(start, limit, row);
  const accept = matches === null ? source.test() : memberTest(matches);
  walkInOrder({ order: table.order, runSortLimit: settings.runSortLimit }, rules, accept, everyLive, sink);
  return { items: sink.items, total };
};

/** A membership test for a set of ids: a binary search in them, ascending (no hash set to build). */
const memberTest = (ids: readonly number[]): ((id: number) => boolean) => {
  let ascending = true;
  for (let k = 1; k < ids.length && ascending; k++) ascending = (ids[k - 1] as number) < (ids[k] as number);
  const sorted = ascending ? ids : Float64Array.from(ids).sort();
  return (id) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) < id) lo = mid + 1;
      else hi = mid;
    }
    return sorted[lo] === id;
  };
};
