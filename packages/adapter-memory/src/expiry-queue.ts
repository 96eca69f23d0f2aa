import { SortedList } from './sorted-list.js';

interface Deadline<K> {
  readonly at: number;
  readonly seq: number;
  readonly key: K;
}

/**
 * Keys with a deadline, earliest first, so everything past a deadline is found without
 * looking at the rest: the lazy purge of expired tokens and ended rate-limit windows.
 */
export class ExpiryQueue<K> {
  private readonly queue: SortedList<Deadline<K>>;
  // Map: derived: the deadlines of records its owner keeps (restored with them)
  private readonly byKey = new Map<K, Deadline<K>>();
  private seq = 0;

  constructor(load: number) {
    this.queue = new SortedList<Deadline<K>>((a, b) => a.at - b.at || a.seq - b.seq, load);
  }

  /** Sets (or moves) the deadline of a key. */
  set(key: K, at: number): void {
    this.delete(key);
    const entry = { at, seq: (this.seq += 1), key };
    this.byKey.set(key, entry);
    this.queue.insert(entry);
  }

  delete(key: K): void {
    const entry = this.byKey.get(key);
    if (entry === undefined) return;
    this.byKey.delete(key);
    this.queue.remove(entry);
  }

  /** Up to `limit` keys whose deadline is at or before `now`, earliest first, left in the queue. */
  due(now: number, limit: number): K[] {
    const out: K[] = [];
    this.queue.scan(0, 1, (d) => {
      if (d.at > now || out.length >= limit) return false;
      out.push(d.key);
      return true;
    });
    return out;
  }

  /** Removes and returns every key whose deadline is at or before `now`. */
  takeDue(now: number): K[] {
    const due: K[] = [];
    for (let first = this.queue.first(); first !== undefined && first.at <= now; first = this.queue.first()) {
      this.queue.remove(first);
      this.byKey.delete(first.key);
      due.push(first.key);
    }
    return due;
  }
}
