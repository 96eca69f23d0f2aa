import { compareKeys, sortFieldId, type SortRule } from '@support/domain';
import type { SortedList } from '../sorted-list.js';
import { sortIds } from './id-order.js';
import type { PageSink } from './page-sink.js';
import type { SortIndexes, SortKey } from './sort-indexes.js';

export interface WalkContext {
  readonly order: SortIndexes;
  /** Runs of equal first keys up to this length are sorted in memory, longer ones walked. */
  readonly runSortLimit: number;
  /**
   * The only keys a field can have among the accepted tickets (the ranks of a state or
   * priority filter), or null: a walk of that field's index visits only their runs, instead of
   * testing every ticket of the others (priority=normal sorted by -priority skips the urgent
   * and high ones by two binary searches).
   */
  readonly allowedKeys: (field: SortRule['field']) => readonly number[] | null;
}

/** Whether a live ticket matches, by its id: tests that read no row, so rejected ids cost little. */
type Accept = (id: number) => boolean;

/**
 * Offers the accepted tickets to the sink in the complete order `rules` (ending with the id
 * tie-breaker), walking the first rule's index in its direction and stopping once the page
 * is full. Within a run of equal first keys the later rules decide: the id direction by
 * walking the run the other way, other rules by sorting a short run or by walking the next
 * rule's index for a long one. `everyLiveAccepted` (the filter selects every live ticket)
 * lets whole runs be skipped by their length, so a deep page costs no more than a first one.
 */
export const walkInOrder = (
  ctx: WalkContext,
  rules: readonly SortRule[],
  accept: Accept,
  everyLiveAccepted: boolean,
  sink: PageSink,
): void => {
  const [first, ...rest] = rules;
  if (first === undefined || sink.isFull()) return;
  if (sortFieldId(first.field) !== null) {
    // A custom field: the tickets with a value in its index's order, then the unset ones, last
    // in both directions, in the order of the other rules (a field deleted since: all unset).
    const index = ctx.order.customIndex(first.field);
    if (index?.sorted) walkIndex(ctx, first, rest, accept, everyLiveAccepted, sink);
    if (sink.isFull()) return;
    const absent = index?.absent;
    walkInOrder(ctx, rest, absent === undefined ? accept : (id) => accept(id) && absent.has(id), false, sink);
    return;
  }
  walkIndex(ctx, first, rest, accept, everyLiveAccepted, sink);
};

/** walkInOrder over the index of the first rule's field (see there). */
const walkIndex = (
  ctx: WalkContext,
  first: SortRule,
  rest: readonly SortRule[],
  accept: Accept,
  everyLiveAccepted: boolean,
  sink: PageSink,
): void => {
  const list = ctx.order.list(first.field);
  const n = list.size;
  const step = first.direction === 'asc' ? 1 : -1;
  /** Index position of the p-th ticket in walking order. */
  const at = (p: number): number => (step === 1 ? p : n - 1 - p);
  const offer = (id: number): boolean => accept(id) && sink.offer(id);

  const allowed = ctx.allowedKeys(first.field);
  if (allowed !== null && rest.length > 0) {
    for (const key of [...allowed].sort((a, b) => (a - b) * step)) {
      if (sink.isFull()) return;
      const probe = ctx.order.keyProbe(first.field, key);
      const lo = list.lowerBound(probe);
      const length = list.upperBound(probe) - lo;
      // Within a run the rest of the order decides (the id tie-breaker in either direction included).
      if (length > 0) emitRun(ctx, { list, lo, length, field: first.field, key }, rest, accept, sink);
    }
    return;
  }

  const [next] = rest;
  if (next === undefined || (rest.length === 1 && next.field === 'id' && next.direction === first.direction)) {
    let from = 0;
    if (everyLiveAccepted) {
      from = Math.min(sink.skip, n);
      sink.skip -= from;
    }
    list.scan(at(from), step, (id) => !offer(id));
    return;
  }

  const keyAt = (p: number): SortKey => ctx.order.keyOf(idAt(list, at(p)), first.field);
  /** [walking position of the run's first ticket, run length] of the run holding walking position p. */
  const runAt = (p: number): [SortKey, number, number] => {
    const key = keyAt(p);
    const probe = ctx.order.keyProbe(first.field, key);
    const lo = list.lowerBound(probe);
    const hi = list.upperBound(probe);
    return [key, step === 1 ? lo : n - hi, hi - lo];
  };

  let p = 0;
  if (everyLiveAccepted && sink.skip > 0) {
    if (sink.skip >= n) {
      sink.skip -= n;
      return;
    }
    const [, start] = runAt(sink.skip);
    sink.skip -= start;
    p = start;
  }
  while (p < n && !sink.isFull()) {
    const [key, start, length] = runAt(p);
    const run: Run = { list, lo: step === 1 ? start : n - start - length, length, field: first.field, key };
    if (everyLiveAccepted && sink.skip >= length) sink.skip -= length;
    else emitRun(ctx, run, rest, accept, sink);
    p = start + length;
  }
};

interface Run {
  readonly list: SortedList<number>;
  /** Index position of the run's first entry (entries of a run are in id order). */
  readonly lo: number;
  readonly length: number;
  readonly field: SortRule['field'];
  readonly key: SortKey;
}

const emitRun = (ctx: WalkContext, run: Run, rest: readonly SortRule[], accept: Accept, sink: PageSink): void => {
  const [next] = rest;
  if (next === undefined) return;
  if (rest.length === 1) {
    // Only the id tie-breaker is left, against the walking direction: walk the run the other way.
    let left = run.length;
    const from = next.direction === 'asc' ? run.lo : run.lo + run.length - 1;
    run.list.scan(from, next.direction === 'asc' ? 1 : -1, (id) => {
      left -= 1;
      return !(accept(id) && sink.offer(id)) && left > 0;
    });
  } else if (run.length <= ctx.runSortLimit) {
    const members = run.list.slice(run.lo, run.lo + run.length).filter(accept);
    for (const id of sortIds((i, f) => ctx.order.keyOf(i, f), members, rest)) if (sink.offer(id)) return;
  } else {
    const inRun: Accept = (id) => accept(id) && compareKeys(ctx.order.keyOf(id, run.field), run.key) === 0;
    walkInOrder(ctx, rest, inRun, false, sink);
  }
};

const idAt = (list: SortedList<number>, position: number): number => {
  const id = list.at(position);
  if (id === undefined) throw new RangeError(`no index entry at ${position}`);
  return id;
};
