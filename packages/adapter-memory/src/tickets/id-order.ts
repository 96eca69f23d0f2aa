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

/** The order of two ids (one rule's, its direction included, or a complete order). */
export type IdOrder = (a: number, b: number) => number;

/** The first of `order`'s comparers that tells two ids apart decides. */
const compareInOrder = (order: readonly IdOrder[], a: number, b: number): number => {
  for (let r = 0; r < order.length; r++) {
    const c = (order[r] as IdOrder)(a, b);
    if (c !== 0) return c;
  }
  return 0;
};

/**
 * The first `need` ids of those offered, in `order` (one comparer per rule, ending with the id
 * tie-breaker), without sorting or copying them all: a sorted window of at most `need` ids, each
 * new id compared with its last and, when it belongs, put in place by a binary search. For a
 * first page of many matches it allocates only the window (a sort of every match made arrays of
 * every match, search after search: garbage the young generation collects in pauses).
 *
 * A class, not closures made per search: V8 holds the optimised code of a closure made per call
 * only weakly once that call's closures are gone, so a full GC dropped it and the next searches
 * ran these per-id loops unoptimised until V8 compiled them again (a 2-4.8 ms main-thread tail
 * at 1M tickets). A method's code lives as long as its class; so do the comparers, which the
 * table caches (TicketOrderings.ruleComparer).
 */
export class FirstIds {
  readonly ids: number[] = [];

  constructor(
    private readonly order: readonly IdOrder[],
    private readonly need: number,
  ) {}

  offer(id: number): void {
    const { ids: top, need, order } = this;
    if (need <= 0 || (top.length === need && compareInOrder(order, id, top[need - 1] as number) >= 0)) return;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareInOrder(order, top[mid] as number, id) <= 0) lo = mid + 1;
      else hi = mid;
    }
    // In place (a splice makes an array of the removed ids: garbage per id placed).
    let k = top.length < need ? top.length : need - 1;
    while (k > lo) {
      top[k] = top[k - 1] as number;
      k -= 1;
    }
    top[lo] = id;
  }

  /** Offers `values[from..to)` (a stretch of a candidate set: Candidates.forEachSlice). */
  offerSlice(values: ArrayLike<number>, from: number, to: number): void {
    for (let k = from; k < to; k++) this.offer(values[k] as number);
  }
}
