import { stateRank, ticketStates, type TicketFilter } from '@support/domain';
import type { SortedList } from '../sorted-list.js';
import type { TicketTable } from './ticket-table.js';

/**
 * Exactly the live tickets that satisfy one condition of a filter, with their number, and a
 * test of that condition for a live ticket's id that reads no row (a rank or time from the
 * table's facts, a set lookup, or a galloping cursor through a word's sorted posting).
 */
export interface Candidates {
  readonly size: number;
  /** Visits the ids a stretch at a time: `values[start..end)` of each stretch (for tight loops). */
  forEachSlice(visit: (values: readonly number[], start: number, end: number) => void): void;
  /**
   * A fresh membership test for live ids; it is cheapest when called with ascending ids
   * (a word's posting is then merged rather than searched), and exact in any order.
   */
  test(): (id: number) => boolean;
}

const ofSet = (ids: ReadonlySet<number>): Candidates => ({
  size: ids.size,
  forEachSlice: (visit) => {
    visit([...ids], 0, ids.size);
  },
  test: () => (id) => ids.has(id),
});

const ofRanges = (
  list: SortedList<number>,
  ranges: readonly (readonly [number, number])[],
  test: () => (id: number) => boolean,
): Candidates => ({
  size: ranges.reduce((n, [lo, hi]) => n + hi - lo, 0),
  forEachSlice: (visit) => {
    for (const [lo, hi] of ranges) list.scanSlices(lo, hi, visit);
  },
  test,
});

/** Every id of a candidate set, in its order. */
export const idsOf = (source: Candidates): number[] => {
  const out: number[] = [];
  source.forEachSlice((values, start, end) => {
    for (let k = start; k < end; k++) out.push(values[k] as number);
  });
  return out;
};

const nothing: Candidates = { size: 0, forEachSlice: () => undefined, test: () => () => false };

/** The candidates of every live ticket, in id order. */
export const everyLiveTicket = (table: TicketTable): Candidates => {
  const ids = table.order.list('id');
  return ofRanges(ids, [[0, ids.size]], () => () => true);
};

const statesCandidates = (table: TicketTable, states: TicketFilter['states']): Candidates | null => {
  if (states === null) return null;
  const wanted = new Set(states);
  if (ticketStates.every((s) => wanted.has(s))) return null;
  const list = table.order.list('state');
  const ranks = [...wanted].map(stateRank);
  // Each state's entries are one run of the state index, in id order.
  const ranges = ranks.map((rank) => {
    const probe = table.order.keyProbe('state', rank);
    return [list.lowerBound(probe), list.upperBound(probe)] as const;
  });
  const accepted = ticketStates.map((_, rank) => ranks.includes(rank));
  const { facts } = table;
  return ofRanges(list, ranges, () => (id) => accepted[facts.stateRank(id)] === true);
};

const closedSinceCandidates = (table: TicketTable, since: number | null): Candidates | null => {
  if (since === null) return null;
  // null sorts before every time, so the tickets closed at or after `since` are one tail.
  const list = table.order.list('closed_at');
  const { facts } = table;
  const from = list.lowerBound(table.order.keyProbe('closed_at', since));
  // A ticket that is not closed has NaN, which is not >= anything.
  return ofRanges(list, [[from, list.size]], () => (id) => facts.closedAt(id) >= since);
};

const wordCandidates = (table: TicketTable, word: string): Candidates => {
  const posting = table.words.posting(word);
  return posting === undefined ? nothing : ofRanges(posting, [[0, posting.size]], () => posting.cursor());
};

/**
 * One candidate set per condition of the filter (no list: every live ticket matches). Each is
 * exact on its own, so a ticket matches the filter when it is in every one of them.
 */
export const candidatesOf = (table: TicketTable, filter: TicketFilter): Candidates[] => {
  const out: Candidates[] = [];
  const states = statesCandidates(table, filter.states);
  if (states !== null) out.push(states);
  if (filter.customerId !== null) out.push(ofSet(table.liveByCustomer.get(filter.customerId)));
  for (const word of new Set(filter.words)) out.push(wordCandidates(table, word));
  const closed = closedSinceCandidates(table, filter.closedSince);
  if (closed !== null) out.push(closed);
  return out;
};

/**
 * The ids in every one of several candidate sets, without reading a row: the smallest set is
 * visited (its ids ascend for a word or a single state) and each id tested against the others,
 * smallest first (the likeliest to reject). Costs about the smallest set's size in cheap steps
 * (a word's posting is merged by galloping, k·log(size / k)), whatever the store's size.
 */
export const intersection = (sources: readonly Candidates[]): number[] => {
  const [driver, ...others] = [...sources].sort((a, b) => a.size - b.size);
  const out: number[] = [];
  if (driver === undefined || driver.size === 0) return out;
  const tests = others.map((c) => c.test());
  const [only] = tests;
  driver.forEachSlice((values, start, end) => {
    if (tests.length === 1 && only !== undefined) {
      for (let k = start; k < end; k++) {
        const id = values[k] as number;
        if (only(id)) out.push(id);
      }
      return;
    }
    next: for (let k = start; k < end; k++) {
      const id = values[k] as number;
      for (const test of tests) if (!test(id)) continue next;
      out.push(id);
    }
  });
  return out;
};
