// The searches inside one sorted array that SortedList (sorted-list.ts) is built on.

/** Where a value lies relative to a target: negative below it, 0 at it, positive above it. */
export type Probe<T> = (value: T) => number;

/** The first index of a sorted array whose value is not below the probe's target. */
export const lowerBoundIn = <T>(values: ArrayLike<T>, probe: Probe<T>): number => {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (probe(values[mid] as T) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/**
 * The first index after `from` of an ascending array of numbers whose value is not below
 * `target` (values[from] must be below it): doubling steps, then a binary search in the last.
 */
export const gallopNumbers = (values: ArrayLike<number>, from: number, target: number): number => {
  const n = values.length;
  let lo = from;
  let step = 1;
  let hi = lo + step;
  while (hi < n && (values[hi] as number) < target) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > n) hi = n;
  lo += 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] as number) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/**
 * The values in a Uint32Array, 4 bytes each (a JS array takes 8 a slot), when every one is an id
 * (an integer in [0, 2^32)) and there is one at least; else null.
 */
export const packedIds = (values: readonly unknown[]): Uint32Array | null => {
  for (const v of values) if (typeof v !== 'number' || v >>> 0 !== v) return null;
  return values.length > 0 ? Uint32Array.from(values as number[]) : null;
};
