import type { Page } from '@support/application';
import {
  priorityRank,
  stateRank,
  type CompleteSort,
  type SortRule,
  type Ticket,
  type TicketFilter,
} from '@support/domain';
import type { QueueSetsChoice, SearchPlanChoice } from '../options.js';
import { candidatesOf, everyLiveTicket, idsOf, intersection, type Candidates, type Matches } from './candidates.js';
import { FirstIds, sortIds } from './id-order.js';
import { walkInOrder } from './index-walk.js';
import { PageSink } from './page-sink.js';
import type { TicketTable } from './ticket-table.js';

export interface SearchSettings {
  readonly searchPlan: SearchPlanChoice;
  readonly runSortLimit: number;
  readonly queueSets: QueueSetsChoice;
}

/**
 * Sorting the matches costs about m·log m; walking an index until the page is full costs
 * about (offset + limit) × live / m id tests when matches are spread evenly. Walking is cheap
 * for common matches and sorting for rare ones, which the walk may have to look for far.
 */
const prefersSort = (matches: number, need: number, live: number): boolean =>
  matches * Math.log2(matches + 2) <= (2 * need * live) / Math.max(1, matches);

/** The ranks a state or priority filter allows (see WalkContext.allowedKeys). */
const allowedKeysOf =
  (filter: TicketFilter) =>
  (field: SortRule['field']): readonly number[] | null => {
    if (field === 'state' && filter.states !== null) return [...new Set(filter.states.map(stateRank))];
    if (field === 'priority' && filter.priorities !== null) return [...new Set(filter.priorities.map(priorityRank))];
    return null;
  };

/** The most ids firstIds keeps in its window (beyond it, a sort of every match is cheaper). */
const firstIdsLimit = 256;

const smallestOf = (sources: readonly Candidates[]): Candidates => sources.reduce((a, b) => (b.size < a.size ? b : a));

/**
 * One page of the live tickets the filter selects, in the complete order of `sort`, and their
 * total. No row is read to select: one condition's candidates are counted by their set's size,
 * several are intersected by id (sets, ranks and times from the table's facts, merged word
 * postings) or, when all are large, as bitsets (candidates.ts). The page comes from sorting the matching ids by their keys (numeric keys come
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

  let matches: Matches | null = null;
  let total = source.size;
  if (sources.length > 1) {
    matches = intersection(sources, settings.queueSets === 'bitsets' ? 0 : table.liveCount);
    total = matches.count;
  }
  const start = Math.max(0, offset);
  if (limit <= 0 || start >= total) return { items: [], total };

  const sortMatches =
    settings.searchPlan === 'cost'
      ? !everyLive && prefersSort(total, start + limit, table.liveCount)
      : settings.searchPlan === 'sort-matches';
  // A caller's copy of each ticket of the page (its own tags and lists).
  const row = (id: number): Ticket => table.copy(id);
  if (sortMatches) {
    const keyOf = (id: number, field: SortRule['field']) => table.order.keyOf(id, field);
    const need = start + limit;
    // A page near the front of many matches: keep only the first `need` (no array of all of them).
    if (need <= firstIdsLimit && 2 * need <= total) {
      const window = new FirstIds(
        rules.map((rule) => table.orderings.ruleComparer(rule)),
        need,
      );
      if (matches !== null) matches.offerEach(window);
      // A closure per search that only forwards a stretch (the loop over its ids is FirstIds').
      else
        source.forEachSlice((values, from, to) => {
          window.offerSlice(values, from, to);
        });
      return { items: window.ids.slice(start).map(row), total };
    }
    const ids = matches === null ? idsOf(source) : matches.ids();
    const page = sortIds(keyOf, ids, rules).slice(start, start + limit);
    return { items: page.map(row), total };
  }
  const sink = new PageSink(start, limit, row);
  const accept = matches === null ? source.test() : matches.test();
  walkInOrder(
    {
      order: table.order,
      runSortLimit: settings.runSortLimit,
      allowedKeys: allowedKeysOf(filter),
    },
    rules,
    accept,
    everyLive,
    sink,
  );
  return { items: sink.items, total };
};
