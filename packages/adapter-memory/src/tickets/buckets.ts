const none: ReadonlySet<number> = new Set();

/** Ids grouped by a key (a customer, an assignee, a group); empty groups are dropped. */
export class Buckets {
  // Map: derived: an index of the tickets table, rebuilt by its restorer
  private readonly byKey = new Map<number, Set<number>>();

  add(key: number, id: number): void {
    const bucket = this.byKey.get(key);
    if (bucket === undefined) this.byKey.set(key, new Set([id]));
    else bucket.add(id);
  }

  remove(key: number, id: number): void {
    const bucket = this.byKey.get(key);
    if (bucket === undefined) return;
    bucket.delete(id);
    if (bucket.size === 0) this.byKey.delete(key);
  }

  get(key: number): ReadonlySet<number> {
    return this.byKey.get(key) ?? none;
  }

  /** Moves an id from one key to another; a null key means "in no bucket". */
  move(id: number, from: number | null, to: number | null): void {
    if (from === to) return;
    if (from !== null) this.remove(from, id);
    if (to !== null) this.add(to, id);
  }
}
