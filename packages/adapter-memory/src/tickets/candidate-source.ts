import type { SortedList } from '../sorted-list.js';

/**
 * Exactly the live tickets that satisfy one condition of a filter, with their number, and a
 * test of that condition for a live ticket's id that reads no row (a rank or time from the
 * table's facts, a set lookup, or a galloping cursor through a word's sorted posting).
 */
export interface Candidates {
  readonly size: number;
  /** Visits the ids a stretch at a time: `values[start..end)` of each stretch (for tight loops). */
  forEachSlice(visit: (values: ArrayLike<number>, start: number, end: number) => void): void;
  /**
   * A fresh membership test for live ids; it is cheapest when called with ascending ids
   * (a word's posting is then merged rather than searched), and exact in any order.
   */
  test(): (id: number) => boolean;
  /**
   * The candidates as a bitset over ids (read only), for those kept in id sets (id-set.ts);
   * valid until another candidate set's bits are asked for (see unionBits).
   */
  readonly bits?: () => Uint32Array;
  /** For a range of a sort index: the live ids outside it (fewer than inside, for a wide range). */
  readonly outside?: Pick<Candidates, 'size' | 'forEachSlice'>;
}

export const ofRanges = (
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

/** A membership test for a set of ids: a binary search in them, ascending (no hash set to build). */
export const memberTest = (ids: readonly number[]): ((id: number) => boolean) => {
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

/** Exactly these ids (ascending, distinct). */
export const ofIds = (ids: readonly number[]): Candidates => ({
  size: ids.length,
  forEachSlice: (visit) => {
    if (ids.length > 0) visit(ids, 0, ids.length);
  },
  test: () => memberTest(ids),
});

/** The union of candidate sets no two of which share an id (an empty one is left out: a single set keeps its bitset). */
export const disjointUnion = (all: readonly Candidates[]): Candidates => {
  const parts = all.filter((p) => p.size > 0);
  const [single] = parts.length === 1 ? parts : [];
  if (single !== undefined) return single;
  if (parts.length === 0) return ofIds([]);
  return {
    size: parts.reduce((n, p) => n + p.size, 0),
    forEachSlice: (visit) => {
      for (const p of parts) p.forEachSlice(visit);
    },
    test: () => {
      const tests = parts.map((p) => p.test());
      return (id) => tests.some((t) => t(id));
    },
  };
};
