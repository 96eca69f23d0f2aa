/** Ids below this pack with a 32-bit key into one exact double (key × span + id < 2^53). */
const idSpan = 2 ** 22;

/** The "no key" of the 32-bit form: an id without a value (a value equal to it widens the form). */
const none = -2147483648;

/**
 * A number per ticket id, or none: the sort keys of a custom field (field-index.ts). Kept in
 * 4 bytes an id while every key is a 32-bit integer (dates as YYYYMMDD, checkboxes, dropdown
 * ranks, most integers), in 8 (a double, NaN for none) from the first key that is not; at a
 * million tickets that is 4 MB a field instead of 8. Grows by a quarter, not by doubling, so a
 * store of a million tickets does not add 8 MB a field at its first new ticket.
 */
export class NumericKeys {
  private ints: Int32Array | null = new Int32Array(0);
  private floats: Float64Array | null = null;

  get length(): number {
    return (this.ints ?? this.floats)?.length ?? 0;
  }

  /** The key of `id`, or null when it has none. */
  get(id: number): number | null {
    if (this.ints !== null) {
      const v = this.ints[id];
      return v === undefined || v === none ? null : v;
    }
    const v = (this.floats as Float64Array)[id];
    return v === undefined || Number.isNaN(v) ? null : v;
  }

  set(id: number, key: number): void {
    if (id >= this.length) this.grow(id + 1);
    if (this.ints !== null && ((key | 0) !== key || key === none || Object.is(key, -0))) this.widen();
    if (this.ints !== null) this.ints[id] = key;
    else (this.floats as Float64Array)[id] = key;
  }

  clear(id: number): void {
    if (id >= this.length) return;
    if (this.ints !== null) this.ints[id] = none;
    else (this.floats as Float64Array)[id] = Number.NaN;
  }

  /**
   * The ids (each with a key) ordered by (key, id) through a native sort of packed doubles,
   * when every key is a 32-bit integer and every id below 2^22; else null (sort by `get`). At a
   * million tickets that is a fraction of a comparator's sort, which calls back ~20M times.
   */
  sortedIds(ids: readonly number[]): number[] | null {
    const ints = this.ints;
    if (ints === null) return null;
    const packed = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      if (id >= idSpan) return null;
      packed[i] = (ints[id] as number) * idSpan + id;
    }
    packed.sort();
    const out = new Array<number>(packed.length);
    for (let i = 0; i < packed.length; i++) {
      const v = packed[i] as number;
      out[i] = v - Math.floor(v / idSpan) * idSpan;
    }
    return out;
  }

  /** Gives back the room past `top` (plus a little): after a start's bulk fill. */
  fit(top: number): void {
    if (this.length > top + 1024) this.resize(top + 1024);
  }

  private grow(needed: number): void {
    this.resize(Math.max(needed, Math.ceil(1.25 * this.length), 1024));
  }

  private resize(size: number): void {
    if (this.ints !== null) {
      const ints = new Int32Array(size).fill(none);
      ints.set(this.ints.subarray(0, Math.min(size, this.ints.length)));
      this.ints = ints;
      return;
    }
    const old = this.floats as Float64Array;
    const floats = new Float64Array(size).fill(Number.NaN);
    floats.set(old.subarray(0, Math.min(size, old.length)));
    this.floats = floats;
  }

  private widen(): void {
    const ints = this.ints as Int32Array;
    const floats = new Float64Array(ints.length);
    for (let i = 0; i < ints.length; i++) floats[i] = ints[i] === none ? Number.NaN : (ints[i] as number);
    this.floats = floats;
    this.ints = null;
  }
}
