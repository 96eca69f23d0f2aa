/** Ids below this pack with a 32-bit key into one exact double (key × span + id < 2^53). */
const idSpan = 2 ** 22;

/** The "no key" of the 32-bit form: an id without a value (a value equal to it widens the form). */
const none = -2147483648;

/** Ids per chunk of a column (numeric-keys.ts, value-columns.ts): 16 KB of 32-bit keys. */
export const chunkSize = 4096;

/**
 * A number per ticket id, or none: a custom field's numbers and sort keys (value-columns.ts,
 * field-index.ts). In chunks of 4,096 ids, each made at its first key, kept in 4 bytes an id
 * while every key of the chunk is a 32-bit integer (dates as YYYYMMDD, checkboxes, dropdown
 * ranks, most integers), in 8 (a double, NaN for none) from its first key that is not. Chunks
 * never move: a store that grows copies nothing, and a start leaves no grown-out arrays behind
 * (at a million tickets, 1.25x growth allocated ~5x a column's size on the way, freed only
 * later: tens of MB of RSS right after a start).
 */
export class NumericKeys {
  private readonly chunks: (Int32Array | Float64Array | undefined)[] = [];

  /** One more than the largest id a key could have been set for. */
  get length(): number {
    return this.chunks.length * chunkSize;
  }

  /** The key of `id`, or null when it has none. */
  get(id: number): number | null {
    const at = Math.floor(id / chunkSize);
    const chunk = this.chunks[at];
    if (chunk === undefined) return null;
    const v = chunk[id - at * chunkSize] as number;
    if (chunk instanceof Int32Array) return v === none ? null : v;
    return Number.isNaN(v) ? null : v;
  }

  set(id: number, key: number): void {
    const at = Math.floor(id / chunkSize);
    let chunk = this.chunks[at];
    if (chunk === undefined) {
      while (this.chunks.length < at) this.chunks.push(undefined);
      chunk = new Int32Array(chunkSize).fill(none);
      this.chunks[at] = chunk;
    }
    if (chunk instanceof Int32Array && ((key | 0) !== key || key === none || Object.is(key, -0))) {
      chunk = Float64Array.from(chunk, (v) => (v === none ? Number.NaN : v));
      this.chunks[at] = chunk;
    }
    chunk[id - at * chunkSize] = key;
  }

  clear(id: number): void {
    const at = Math.floor(id / chunkSize);
    const chunk = this.chunks[at];
    if (chunk !== undefined) chunk[id - at * chunkSize] = chunk instanceof Int32Array ? none : Number.NaN;
  }
}

/** The widest span of keys (largest less smallest) that packedSort counts rather than sorts. */
const countedSpan = 4096;

/**
 * The ids (each with a numeric key) ordered by (key, id) through a native sort of packed
 * doubles, when every key is a 32-bit integer and every id below 2^22; else null (sort with a
 * comparator). At a million tickets that is a fraction of a comparator's sort, which calls back
 * ~20M times. Ids given ascending whose keys span few values (ranks, a dropdown's options, a
 * checkbox) are counted into place instead, in two passes and no sort: at a start every id
 * list comes ascending, and most of a million tickets' fields and the state and priority
 * indexes are of that kind.
 */
export const packedSort = (ids: readonly number[], keyOf: (id: number) => number): number[] | null => {
  const keys = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    const key = keyOf(id);
    if (id >= idSpan || (key | 0) !== key) return null;
    keys[i] = key;
  }
  return byKeys(ids, keys);
};

/**
 * packedSort for any numeric keys (decimals, integers beyond 32 bits): each key replaced by its
 * rank among all of them (a native sort of the keys, a binary search each), equal keys by one
 * rank, then ordered as packedSort orders 32-bit keys. Null for an id of 2^22 or more, or a NaN.
 */
export const rankedSort = (ids: readonly number[], keyOf: (id: number) => number): number[] | null => {
  const values = new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    const key = keyOf(id);
    if (id >= idSpan || Number.isNaN(key)) return null;
    values[i] = key;
  }
  const sorted = values.slice().sort();
  const ranks = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const key = values[i] as number;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    ranks[i] = lo;
  }
  return byKeys(ids, ranks);
};

/** Ids (each below 2^22) by (key, id): counted when they ascend and their keys span few values, else packed and sorted natively. */
const byKeys = (ids: readonly number[], keys: Int32Array): number[] => {
  let min = 0;
  let max = 0;
  let ascending = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as number;
    if (i === 0 || key < min) min = key;
    if (i === 0 || key > max) max = key;
    if (i > 0 && (ids[i] as number) <= (ids[i - 1] as number)) ascending = false;
  }
  if (ascending && max - min < countedSpan) return counted(ids, keys, min, max);
  const packed = new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) packed[i] = (keys[i] as number) * idSpan + (ids[i] as number);
  packed.sort();
  const out = new Array<number>(packed.length);
  for (let i = 0; i < packed.length; i++) {
    const v = packed[i] as number;
    out[i] = v - Math.floor(v / idSpan) * idSpan;
  }
  return out;
};

/** Ascending ids ordered by their keys in [min, max] (a counting sort: each key's ids keep their order). */
const counted = (ids: readonly number[], keys: Int32Array, min: number, max: number): number[] => {
  const next = new Int32Array(max - min + 2);
  for (let i = 0; i < keys.length; i++) {
    const k = (keys[i] as number) - min + 1;
    next[k] = (next[k] as number) + 1;
  }
  for (let k = 1; k < next.length; k++) next[k] = (next[k] as number) + (next[k - 1] as number);
  const out = new Array<number>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const k = (keys[i] as number) - min;
    out[next[k] as number] = ids[i] as number;
    next[k] = (next[k] as number) + 1;
  }
  return out;
};
