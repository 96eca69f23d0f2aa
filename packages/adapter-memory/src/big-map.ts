/** Numeric keys per inner map: far below V8's 2^24 entries a Map can hold. */
const span = 2 ** 22;

/**
 * A Map that holds more than V8's 2^24 entries for numeric keys (ids): keys are spread over
 * inner maps by range (0..2^22-1 in the first, and so on), so that no one map reaches the cap.
 * Other keys share the first map. Iteration goes range by range, each in insertion order: for
 * ids given in ascending order, that is insertion order.
 */
export class BigMap<K, V> implements Map<K, V> {
  // Map: journal: a BigMap's own shards; whoever makes the BigMap says what it holds
  private readonly shards: Map<K, V>[] = [new Map<K, V>()];

  private shard(key: K): Map<K, V> | undefined {
    return this.shards[typeof key === 'number' && key >= span ? Math.floor(key / span) : 0];
  }

  get size(): number {
    let n = 0;
    for (const s of this.shards) n += s.size;
    return n;
  }

  get(key: K): V | undefined {
    return this.shard(key)?.get(key);
  }

  has(key: K): boolean {
    return this.shard(key)?.has(key) ?? false;
  }

  set(key: K, value: V): this {
    const at = typeof key === 'number' && key >= span ? Math.floor(key / span) : 0;
    // Map: journal: another shard of this BigMap
    while (this.shards.length <= at) this.shards.push(new Map<K, V>());
    (this.shards[at] as Map<K, V>).set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.shard(key)?.delete(key) ?? false;
  }

  clear(): void {
    for (const s of this.shards) s.clear();
  }

  forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) callback.call(thisArg, v, k, this);
  }

  *entries(): MapIterator<[K, V]> {
    for (const s of this.shards) yield* s.entries();
  }

  *keys(): MapIterator<K> {
    for (const s of this.shards) yield* s.keys();
  }

  *values(): MapIterator<V> {
    for (const s of this.shards) yield* s.values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'BigMap';
  }
}
