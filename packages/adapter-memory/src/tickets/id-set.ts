// Sets of live ticket ids for the queue filters (a state, a priority, an assignee, a group, a
// customer, a tag), kept in one of two forms by their density: a hash set while sparse, a
// bitset over ids (one bit per id, 32 per word) once at least one id in `denseRatio` is in it.
// A dense set costs at most denseRatio / 8 bytes per member (less than a hash set's entry),
// and two dense sets intersect and count word by word (32 ids per step, no row read), which
// is what lets two broad filters (priority=normal AND group_id=none) be counted at once.

/** Dense from one member per this many ids; sparse again below a quarter of that density. */
const denseRatio = 256;
const minDense = 1024;

const popcount = (x: number): number => {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

/** How many bits are set. */
export const countBits = (bits: Uint32Array): number => {
  let n = 0;
  for (let w = 0; w < bits.length; w++) {
    const x = bits[w] as number;
    if (x !== 0) n += popcount(x);
  }
  return n;
};

export const hasBit = (bits: Uint32Array, id: number): boolean => (((bits[id >>> 5] ?? 0) >>> (id & 31)) & 1) === 1;

/** The set bits' ids in ascending order, a stretch at a time. */
export const forEachBitSlice = (
  bits: Uint32Array,
  visit: (values: ArrayLike<number>, start: number, end: number) => void,
): void => {
  const buf: number[] = [];
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w] as number;
    while (x !== 0) {
      const low = x & -x;
      buf.push(w * 32 + 31 - Math.clz32(low));
      x ^= low;
    }
    if (buf.length >= 4096) {
      visit(buf, 0, buf.length);
      buf.length = 0;
    }
  }
  if (buf.length > 0) visit(buf, 0, buf.length);
};

/** What a search reads of an id set. */
export type ReadonlyIdSet = Pick<IdSet, 'size' | 'has' | 'denseBits' | 'forEachSlice' | 'orInto' | 'reach'>;

/** A set of ids in the denser of two forms (see above). */
export class IdSet {
  private sparse: Set<number> | null;
  private bits: Uint32Array | null;
  private count = 0;
  /** At least the largest id ever added (an upper bound once ids are deleted). */
  private max = -1;

  /** `alwaysDense`: a bitset from the start, whatever its density (tests reach the dense paths with few ids). */
  constructor(private readonly alwaysDense = false) {
    this.sparse = alwaysDense ? null : new Set();
    this.bits = alwaysDense ? new Uint32Array(0) : null;
  }

  get size(): number {
    return this.count;
  }

  has(id: number): boolean {
    return this.bits === null ? (this.sparse as Set<number>).has(id) : hasBit(this.bits, id);
  }

  add(id: number): void {
    if (this.has(id)) return;
    this.count += 1;
    if (id > this.max) this.max = id;
    if (this.bits === null) {
      const sparse = this.sparse as Set<number>;
      sparse.add(id);
      if (this.count >= minDense && this.count * denseRatio >= this.max + 1) this.toDense(sparse);
      return;
    }
    if (id >>> 5 >= this.bits.length) this.grow(id);
    const bits = this.bits;
    bits[id >>> 5] = ((bits[id >>> 5] as number) | (1 << (id & 31))) >>> 0;
  }

  delete(id: number): void {
    if (!this.has(id)) return;
    this.count -= 1;
    if (this.bits === null) {
      (this.sparse as Set<number>).delete(id);
      return;
    }
    const bits = this.bits;
    bits[id >>> 5] = ((bits[id >>> 5] as number) & ~(1 << (id & 31))) >>> 0;
    if (!this.alwaysDense && this.count * denseRatio * 4 < bits.length * 32) this.toSparse(bits);
  }

  /** The bitset when dense (read only: it is the set itself), else null. */
  denseBits(): Uint32Array | null {
    return this.bits;
  }

  /** The ids a stretch at a time (ascending when dense, in insertion order when sparse). */
  forEachSlice(visit: (values: ArrayLike<number>, start: number, end: number) => void): void {
    if (this.bits !== null) {
      forEachBitSlice(this.bits, visit);
      return;
    }
    const ids = [...(this.sparse as Set<number>)];
    if (ids.length > 0) visit(ids, 0, ids.length);
  }

  /** Sets this set's ids in `bits` (which must reach its largest id). */
  orInto(bits: Uint32Array): void {
    if (this.bits === null) {
      for (const id of this.sparse as Set<number>)
        bits[id >>> 5] = ((bits[id >>> 5] as number) | (1 << (id & 31))) >>> 0;
      return;
    }
    const own = this.bits;
    for (let w = 0; w < own.length; w++) bits[w] = ((bits[w] as number) | (own[w] as number)) >>> 0;
  }

  /** One more than the largest id the set could hold without growing (0 when empty and sparse). */
  reach(): number {
    return this.bits === null ? this.max + 1 : this.bits.length * 32;
  }

  private toDense(sparse: Set<number>): void {
    const bits = new Uint32Array(wordsFor(this.max));
    for (const id of sparse) bits[id >>> 5] = ((bits[id >>> 5] as number) | (1 << (id & 31))) >>> 0;
    this.bits = bits;
    this.sparse = null;
  }

  private toSparse(bits: Uint32Array): void {
    const sparse = new Set<number>();
    forEachBitSlice(bits, (values, start, end) => {
      for (let k = start; k < end; k++) sparse.add(values[k] as number);
    });
    this.sparse = sparse;
    this.bits = null;
  }

  private grow(id: number): void {
    const old = this.bits as Uint32Array;
    const bits = new Uint32Array(Math.max(wordsFor(id), 2 * old.length));
    bits.set(old);
    this.bits = bits;
  }
}

const wordsFor = (maxId: number): number => (maxId >>> 5) + 1;

/** Id sets by key (a customer, an assignee, a tag...); empty sets are dropped. */
export class IdSets<K> {
  // Map: derived: an index of the tickets table, rebuilt by its restorer
  private readonly byKey = new Map<K, IdSet>();
  private static readonly empty = new IdSet();

  constructor(private readonly alwaysDense = false) {}

  get(key: K): ReadonlyIdSet {
    return this.byKey.get(key) ?? IdSets.empty;
  }

  add(key: K, id: number): void {
    let set = this.byKey.get(key);
    if (set === undefined) {
      set = new IdSet(this.alwaysDense);
      this.byKey.set(key, set);
    }
    set.add(id);
  }

  remove(key: K, id: number): void {
    const set = this.byKey.get(key);
    if (set === undefined) return;
    set.delete(id);
    if (set.size === 0) this.byKey.delete(key);
  }

  /** Moves an id from one key's set to another's; null: in no set. */
  move(id: number, from: K | null, to: K | null): void {
    if (from === to) return;
    if (from !== null) this.remove(from, id);
    if (to !== null) this.add(to, id);
  }
}
