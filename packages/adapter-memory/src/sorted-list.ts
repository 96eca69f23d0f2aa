import { gallopNumbers, lowerBoundIn, packedIds, type Probe } from './sorted-search.js';

export type { Probe } from './sorted-search.js';

/**
 * A sorted list in chunks (the design of Python's sortedcontainers.SortedList): each chunk is a
 * short sorted array, so an insert or a removal costs a binary search plus moving at most
 * 2 × `load` elements, and a lookup by position costs a binary search over chunk offsets.
 * Values must be distinct under `compare`.
 * A chunk of ids that `fill` or `compact` made is packed (`packedIds`: 4 bytes an id, not 8) until
 * its first change makes it an array again (at most 2 × `load` values); readers take either.
 */
export class SortedList<T> {
  private chunks: ArrayLike<T>[] = [];
  /** The last (largest) value of each chunk. */
  private maxes: T[] = [];
  /** Position of each chunk's first value; rebuilt on demand after a change. */
  private offsets: number[] = [];
  private offsetsStale = false;
  private count = 0;

  constructor(
    private readonly compare: (a: T, b: T) => number,
    private readonly load = 512,
  ) {
    if (!Number.isInteger(load) || load < 2) throw new RangeError(`a chunk load of at least 2 is needed, got ${load}`);
  }

  get size(): number {
    return this.count;
  }

  /**
   * Adds a value. `probe` compares a stored value with the new one (the default uses `compare`);
   * a caller that knows the new value's sort key can pass a cheaper one.
   */
  insert(value: T, probe: Probe<T> = (v) => this.compare(v, value)): void {
    this.count += 1;
    this.offsetsStale = true;
    const last = this.chunks.length - 1;
    const lastMax = this.maxes[last];
    if (lastMax === undefined) {
      this.chunks.push([value]);
      this.maxes.push(value);
      return;
    }
    // Appends (new ids, creation times) are the common case: one comparison.
    if (probe(lastMax) < 0) {
      this.mutable(last).push(value);
      this.maxes[last] = value;
      if (this.chunkAt(last).length > 2 * this.load) this.split(last);
      return;
    }
    const i = this.firstChunkAtOrAbove(probe);
    const chunk = this.mutable(i);
    chunk.splice(lowerBoundIn(chunk, probe), 0, value);
    if (chunk.length > 2 * this.load) this.split(i);
  }

  /** Fills an empty list with values already sorted and distinct (a bulk load: chunks of `load` each). */
  fill(sorted: readonly T[]): void {
    if (this.count > 0) throw new Error('fill needs an empty list');
    for (let from = 0; from < sorted.length; from += this.load) {
      const chunk = sorted.slice(from, from + this.load);
      this.chunks.push(this.packed(chunk));
      this.maxes.push(chunk[chunk.length - 1] as T);
    }
    this.count = sorted.length;
    this.offsetsStale = true;
  }

  /** Packs every chunk of ids into 4 bytes an id (see the class): for a list built by inserts, once they are done (a start's word postings). */
  compact(): void {
    this.chunks = this.chunks.map((chunk) => (Array.isArray(chunk) ? this.packed(chunk as T[]) : chunk));
  }

  /** Removes the value equal to the probe's target; false when there is none. */
  remove(value: T, probe: Probe<T> = (v) => this.compare(v, value)): boolean {
    const i = this.firstChunkAtOrAbove(probe);
    if (i < 0) return false;
    const at = lowerBoundIn(this.chunkAt(i), probe);
    const found = this.chunkAt(i)[at];
    if (found === undefined || probe(found) !== 0) return false;
    this.mutable(i).splice(at, 1);
    this.count -= 1;
    this.offsetsStale = true;
    this.afterRemoval(i);
    return true;
  }

  has(value: T, probe: Probe<T> = (v) => this.compare(v, value)): boolean {
    const i = this.firstChunkAtOrAbove(probe);
    if (i < 0) return false;
    const chunk = this.chunkAt(i);
    const found = chunk[lowerBoundIn(chunk, probe)];
    return found !== undefined && probe(found) === 0;
  }

  /**
   * A membership test for a sequence of values: each call gallops forward from where the last
   * one stopped, so ascending values cost about log(distance) each and testing k ascending
   * values against the list costs about k·log(size / k) (a merge that skips ahead). A value
   * below the previous one starts over from the front (about 2·log(size) comparisons). The
   * list must not change while the test is in use.
   *
   * Only for a list of numbers in ascending numeric order (the word postings; not the sort
   * indexes, whose numbers are ordered by other keys): it compares numbers directly rather
   * than through `compare`, which halves the cost of this inner loop of intersections.
   */
  cursor(this: SortedList<number>): (value: number) => boolean {
    let i = 0;
    let j = 0;
    let previous = -Infinity;
    return (value) => {
      if (value < previous) {
        i = 0;
        j = 0;
      }
      previous = value;
      const maxes = this.maxes;
      if (i < maxes.length && (maxes[i] as number) < value) {
        i = gallopNumbers(maxes, i, value);
        j = 0;
      }
      if (i >= maxes.length) return false;
      const chunk = this.chunkAt(i);
      if (j < chunk.length && (chunk[j] as number) < value) j = gallopNumbers(chunk, j, value);
      return chunk[j] === value;
    };
  }

  /**
   * Visits the values at positions [from, to) a chunk at a time, as `visit(values, start, end)`
   * for the part values[start..end) of each chunk (cheaper than `scan` for long stretches).
   * The list must not change during the visit.
   */
  scanSlices(from: number, to: number, visit: (values: ArrayLike<T>, start: number, end: number) => void): void {
    let left = Math.min(to, this.count) - Math.max(0, from);
    if (left <= 0) return;
    let [i, j] = this.locate(Math.max(0, from));
    while (left > 0) {
      const chunk = this.chunkAt(i);
      const end = Math.min(chunk.length, j + left);
      visit(chunk, j, end);
      left -= end - j;
      i += 1;
      j = 0;
    }
  }

  /** The value at a position (0 is the smallest), undefined outside the list. */
  at(position: number): T | undefined {
    if (position < 0 || position >= this.count) return undefined;
    const [i, j] = this.locate(position);
    return this.chunks[i]?.[j];
  }

  first(): T | undefined {
    return this.chunks[0]?.[0];
  }

  /** The position of the first value not below the probe's target (the size when there is none). */
  lowerBound(probe: Probe<T>): number {
    const i = this.firstChunkAtOrAbove(probe);
    if (i < 0) return this.count;
    return this.offsetOf(i) + lowerBoundIn(this.chunkAt(i), probe);
  }

  /** The position of the first value above the probe's target (the size when there is none). */
  upperBound(probe: Probe<T>): number {
    const above: Probe<T> = (v) => (probe(v) > 0 ? 1 : -1);
    return this.lowerBound(above);
  }

  /**
   * Visits values from position `from`, one step at a time in the direction `step`, while
   * `visit` answers true. The list must not change during the visit.
   */
  scan(from: number, step: 1 | -1, visit: (value: T) => boolean): void {
    if (from < 0 || from >= this.count) return;
    let [i, j] = this.locate(from);
    for (;;) {
      const chunk = this.chunks[i];
      if (chunk === undefined) return;
      for (; j >= 0 && j < chunk.length; j += step) {
        if (!visit(chunk[j] as T)) return;
      }
      i += step;
      j = step === 1 ? 0 : (this.chunks[i]?.length ?? 0) - 1;
    }
  }

  /** The values at positions [from, to), in order. */
  slice(from: number, to: number): T[] {
    const out: T[] = [];
    const start = Math.max(0, from);
    const wanted = Math.min(to, this.count) - start;
    if (wanted <= 0) return out;
    this.scan(start, 1, (v) => {
      out.push(v);
      return out.length < wanted;
    });
    return out;
  }

  /** Every value, in order (a snapshot). */
  values(): T[] {
    return this.chunks.flatMap((chunk) => Array.from(chunk));
  }

  private chunkAt(i: number): ArrayLike<T> {
    const chunk = this.chunks[i];
    if (chunk === undefined) throw new RangeError(`no chunk ${i}`);
    return chunk;
  }

  /** Chunk `i` as an array that may change (a packed chunk is unpacked first). */
  private mutable(i: number): T[] {
    const chunk = this.chunkAt(i);
    if (Array.isArray(chunk)) return chunk as T[];
    const array = Array.from(chunk);
    this.chunks[i] = array;
    return array;
  }

  /** The chunk packed when it holds ids only, else as it is. */
  private packed(chunk: T[]): ArrayLike<T> {
    return (packedIds(chunk) as ArrayLike<T> | null) ?? chunk;
  }

  /** The first chunk whose largest value is not below the target; -1 when every value is below. */
  private firstChunkAtOrAbove(probe: Probe<T>): number {
    const i = lowerBoundIn(this.maxes, probe);
    return i < this.maxes.length ? i : -1;
  }

  private offsetOf(i: number): number {
    this.refreshOffsets();
    return this.offsets[i] ?? this.count;
  }

  /** [chunk, index in chunk] of a position inside the list. */
  private locate(position: number): [number, number] {
    this.refreshOffsets();
    let lo = 0;
    let hi = this.offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.offsets[mid] ?? 0) <= position) lo = mid;
      else hi = mid - 1;
    }
    return [lo, position - (this.offsets[lo] ?? 0)];
  }

  private refreshOffsets(): void {
    if (!this.offsetsStale) return;
    this.offsets = new Array<number>(this.chunks.length);
    let at = 0;
    for (let i = 0; i < this.chunks.length; i++) {
      this.offsets[i] = at;
      at += this.chunkAt(i).length;
    }
    this.offsetsStale = false;
  }

  /**
   * Halves a chunk into two exact copies: the chunk grew by appends, with room reserved past
   * its end (about half its length again), and an append-mostly list (a word's postings, the
   * ids in creation order) never fills the lower half again, so keeping it would hold ~3 slots
   * a value where a copy holds one (measured: the word index went from 291 to 132 bytes a ticket).
   */
  private split(i: number): void {
    const chunk = this.mutable(i);
    const half = chunk.length >> 1;
    const lower = chunk.slice(0, half);
    const upper = chunk.slice(half);
    this.chunks.splice(i, 1, lower, upper);
    this.maxes.splice(i, 1, lower[lower.length - 1] as T, upper[upper.length - 1] as T);
  }

  /** Keeps chunks between a quarter and twice the load: drops empty ones, merges small ones. */
  private afterRemoval(i: number): void {
    const chunk = this.mutable(i);
    if (chunk.length === 0) {
      this.chunks.splice(i, 1);
      this.maxes.splice(i, 1);
      return;
    }
    this.maxes[i] = chunk[chunk.length - 1] as T;
    if (chunk.length >= this.load >> 2 || this.chunks.length === 1) return;
    const left = i > 0 ? i - 1 : i;
    const merged = this.mutable(left).concat(this.mutable(left + 1));
    this.chunks.splice(left, 2, merged);
    this.maxes.splice(left, 2, merged[merged.length - 1] as T);
    if (merged.length > 2 * this.load) this.split(left);
  }
}
