// Rendered answers kept between requests: a representation's bytes, ETag and gzip depend only
// on what its key names (the resource's version, the caller's view of it, the representation
// options), so a read of an unchanged resource sends bytes made once instead of serializing,
// hashing and compressing them again.
//
// Correctness does not rest on invalidation: an entry is found only under the key it was
// rendered for, and keys name the version (a changed resource has a new key, so its old
// entry can never answer for it). Invalidation is about memory: when a newer version of a
// resource is seen, the entries of its older versions are dropped at once instead of waiting
// to be evicted; and an older version read late (a request that loaded it before a write)
// is not kept next to the newer one.

/** What is kept of one rendered answer. */
export interface CachedAnswer {
  readonly etag: string | null;
  /** The Last-Modified header, formatted. */
  readonly lastModified: string | null;
  /** The body as sent without compression (moved by the cache into one block with its gzip). */
  bytes: Buffer;
  /** Its gzip, made on the first request that takes gzip (given to the cache by `addGzip`). */
  gzipped: Buffer | null;
}

/** A resource at a version: "ticket:12" at 5. */
export interface ResourceVersion {
  readonly of: string;
  readonly is: number;
}

interface Entry {
  readonly answer: CachedAnswer;
  readonly resource: string | null;
  size: number;
  /** Used since it was kept or last spared by eviction (the CLOCK algorithm's reference bit). */
  used: boolean;
}

interface Slot {
  version: number;
  /** Usually one or two: a resource is read in few presentations. */
  readonly keys: string[];
}

// What an entry costs besides its bytes and its key's characters: the objects (entry, answer,
// ETag and date strings, Map and slot entries) and the memory blocks of its bytes, measured
// with 50,000 single-ticket entries (heap and RSS per entry, after a full GC). The budget
// then bounds the memory the cache really holds, not only its payload.
const overheadBytes = 1400;

export interface ResponseCache {
  get(key: string): CachedAnswer | undefined;
  /** Keeps `answer` under `key` unless a newer version of its resource is already kept; answers whether it was kept. */
  set(key: string, answer: CachedAnswer, version: ResourceVersion | null): boolean;
  /**
   * Gives a kept answer its gzip: the bytes and the gzip then share one memory block (a
   * block each costs more than the smaller of them), and the entry's size counts it.
   */
  addGzip(key: string, answer: CachedAnswer, gzipped: Buffer): void;
  /** Bytes held by the entries (an estimate: buffers, keys and bookkeeping). */
  readonly bytes: number;
  readonly size: number;
}

/** A cache bounded by `budget` bytes (0 keeps nothing), evicting about the least recently used first. */
export const responseCache = (budget: number): ResponseCache => {
  const entries = new Map<string, Entry>();
  const slots = new Map<string, Slot>();
  let bytes = 0;

  const remove = (key: string, e: Entry): void => {
    entries.delete(key);
    bytes -= e.size;
    if (e.resource === null) return;
    const slot = slots.get(e.resource);
    if (slot === undefined) return;
    const at = slot.keys.indexOf(key);
    if (at >= 0) slot.keys.splice(at, 1);
    if (slot.keys.length === 0) slots.delete(e.resource);
  };

  // Second chance (CLOCK): from the oldest, an entry used since it was kept goes to the back
  // once, unused ones go. Close to least-recently-used, without moving an entry on every hit.
  const evict = (): void => {
    while (bytes > budget) {
      const first = entries.entries().next();
      if (first.done === true) return;
      const [key, e] = first.value;
      if (e.used) {
        e.used = false;
        entries.delete(key);
        entries.set(key, e);
      } else remove(key, e);
    }
  };

  const sizeOf = (key: string, a: CachedAnswer): number =>
    a.bytes.length + (a.gzipped?.length ?? 0) + key.length + overheadBytes;

  /** Whether an answer for this version may be kept; drops the entries of older versions. */
  const admit = (version: ResourceVersion): boolean => {
    const slot = slots.get(version.of);
    if (slot === undefined) {
      slots.set(version.of, { version: version.is, keys: [] });
      return true;
    }
    if (slot.version > version.is) return false;
    if (slot.version < version.is) {
      for (const key of [...slot.keys]) {
        const e = entries.get(key);
        if (e !== undefined) remove(key, e);
      }
      slots.set(version.of, { version: version.is, keys: [] });
    }
    return true;
  };

  return {
    get: (key) => {
      const e = entries.get(key);
      if (e === undefined) return undefined;
      e.used = true;
      return e.answer;
    },
    set: (key, answer, version) => {
      const size = sizeOf(key, answer);
      if (size > budget / 4) return false;
      const old = entries.get(key);
      if (old !== undefined) remove(key, old);
      if (version !== null && !admit(version)) return false;
      entries.set(key, { answer, resource: version?.of ?? null, size, used: false });
      if (version !== null) slots.get(version.of)?.keys.push(key);
      bytes += size;
      evict();
      return true;
    },
    addGzip: (key, answer, gzipped) => {
      const e = entries.get(key);
      if (e?.answer !== answer) {
        // No longer kept: this request sends it, nothing holds it.
        answer.gzipped = gzipped;
        return;
      }
      const block = Buffer.allocUnsafeSlow(answer.bytes.length + gzipped.length);
      answer.bytes.copy(block);
      gzipped.copy(block, answer.bytes.length);
      answer.bytes = block.subarray(0, answer.bytes.length);
      answer.gzipped = block.subarray(answer.bytes.length);
      const size = sizeOf(key, answer);
      bytes += size - e.size;
      e.size = size;
      evict();
    },
    get bytes() {
      return bytes;
    },
    get size() {
      return entries.size;
    },
  };
};
