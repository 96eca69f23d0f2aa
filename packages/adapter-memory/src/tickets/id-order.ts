import { compareByRule, type SortRule } from '@support/domain';
import type { SortKey } from './ticket-facts.js';

/**
 * Ids in the order `rules` (the domain's `compareTickets` on their tickets), each key read
 * once through `keyOf`: a numeric key costs no row read, a text key one per id.
 */
export const sortIds = (
  keyOf: (id: number, field: SortRule['field']) => SortKey,
  ids: readonly number[],
  rules: readonly SortRule[],
): number[] => {
  const keys = rules.map((r) => (r.field === 'id' ? null : ids.map((id) => keyOf(id, r.field))));
  const positions = ids.map((_, i) => i);
  positions.sort((a, b) => {
    for (const [r, column] of keys.entries()) {
      const rule = rules[r] as SortRule;
      const c =
        column === null
          ? ((ids[a] as number) - (ids[b] as number)) * (rule.direction === 'asc' ? 1 : -1)
          : compareByRule(rule, column[a] as SortKey, column[b] as SortKey);
      if (c !== 0) return c;
    }
    return 0;
  });
  return positions.map((i) => ids[i] as number);
};

/**
 * The first `need` ids of `each`'s ids in the order `rules` (ending with the id tie-breaker),
 * without sorting or copying them all: a sorted window of at most `need` ids, each new id
 * compared with its last and, when it belongs, put in place by a binary search. For a first
 * page of many matches it allocates only the window (a sort of every match made arrays of
 * every match, search after search: garbage the young generation collects in pauses).
 */
export const firstIds = (
  comparer: (rule: SortRule) => (a: number, b: number) => number,
  each: (visit: (id: number) => void) => void,
  rules: readonly SortRule[],
  need: number,
): number[] => {
  const order = rules.map(comparer);
  const compare = (a: number, b: number): number => {
    for (const byRule of order) {
      const c = byRule(a, b);
      if (c !== 0) return c;
    }
    return 0;
  };
  const top: number[] = [];
  if (need <= 0) return top;
  each((id) => {
    if (top.length === need && compare(id, top[need - 1] as number) >= 0) return;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(top[mid] as number, id) <= 0) lo = mid + 1;
      else hi = mid;
    }
    // In place (a splice makes an array of the removed ids: garbage per id placed).
    let k = top.length < need ? top.length : need - 1;
    while (k > lo) {
      top[k] = top[k - 1] as number;
      k -= 1;
    }
    top[lo] = id;
  });
  return top;
};
