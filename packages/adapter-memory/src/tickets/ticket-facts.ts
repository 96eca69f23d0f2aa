import { compareKeys, priorityRank, sortKey, stateRank, type SortField, type Ticket } from '@support/domain';
import type { TicketRow } from '../copies.js';

export type SortKey = number | string | null;

/** closed_at of a ticket that is not closed (null); NaN fails every comparison, as null must. */
const noTime = Number.NaN;

/**
 * The numeric sort keys of every stored ticket (state and priority ranks, the three times) in
 * arrays indexed by id, so that searches can test a condition or compare two tickets by id
 * without reading the rows (a Map lookup each, and a cache miss in a large store). Ids come
 * from a sequence and are dense; an id far beyond the stored count (which would make the
 * arrays mostly empty) is kept aside with its ticket until the arrays grow to reach it.
 */
export class TicketFacts {
  private capacity = 0;
  private count = 0;
  private states = new Int8Array(0);
  private priorities = new Int8Array(0);
  private created = new Float64Array(0);
  private updated = new Float64Array(0);
  private closed = new Float64Array(0);
  // Map: derived: facts of the tickets table, rebuilt by its restorer
  private readonly far = new Map<number, TicketRow>();
  // Map: derived: one comparer per numeric field, made on first use (see `comparer`)
  private readonly orders = new Map<SortField, (a: number, b: number) => number>();

  /** Records a ticket's keys (a new ticket, or new keys for a stored id). */
  put(t: TicketRow): void {
    const isNew = t.id < this.capacity ? (this.states[t.id] as number) < 0 : !this.far.has(t.id);
    if (isNew) this.count += 1;
    if (t.id >= this.capacity && t.id < 2 * this.count + 65_536) this.grow(t.id + 1);
    if (t.id < this.capacity) this.write(t);
    else this.far.set(t.id, t);
  }

  /** The state rank of a stored ticket. */
  stateRank(id: number): number {
    return id < this.capacity ? (this.states[id] as number) : stateRank(this.farRow(id).state);
  }

  /** The priority rank of a stored ticket. */
  priorityRank(id: number): number {
    return id < this.capacity ? (this.priorities[id] as number) : priorityRank(this.farRow(id).priority);
  }

  /** updated_at of a stored ticket. */
  updatedAt(id: number): number {
    return id < this.capacity ? (this.updated[id] as number) : this.farRow(id).updatedAt;
  }

  /** closed_at of a stored ticket, NaN when it has none. */
  closedAt(id: number): number {
    return id < this.capacity ? (this.closed[id] as number) : (this.farRow(id).closedAt ?? noTime);
  }

  /**
   * The order of two stored tickets by a numeric field (`compareKeys` of their keys, no tie
   * break), read straight from the arrays so that no key is boxed: a page's search compares
   * thousands of pairs, and a boxed time each was garbage. Undefined for text. One comparer per
   * field for the facts' lifetime, reading the arrays as they are at each call (they are
   * replaced as they grow): a comparer made per search lost its optimised code at every full GC
   * (see FirstIds, id-order.ts). The start's sort of every live ticket uses them too.
   */
  comparer(field: SortField): ((a: number, b: number) => number) | undefined {
    let order = this.orders.get(field);
    if (order === undefined) {
      order = this.newComparer(field);
      if (order !== undefined) this.orders.set(field, order);
    }
    return order;
  }

  private newComparer(field: SortField): ((a: number, b: number) => number) | undefined {
    const slow = (a: number, b: number): number =>
      compareKeys(this.key(a, field) as SortKey, this.key(b, field) as SortKey);
    // One literal per field: a load site that saw both Int8Array and Float64Array boxed each
    // time it read (a HeapNumber per read: ~400 KB of garbage in a search that compares ~12,000
    // pairs). -1, 0 or 1 rather than a difference: a small integer is never boxed.
    switch (field) {
      case 'id':
        return byId;
      case 'subject':
        return undefined;
      case 'state':
        return (a, b) =>
          a < this.capacity && b < this.capacity
            ? order(this.states[a] as number, this.states[b] as number)
            : slow(a, b);
      case 'priority':
        return (a, b) =>
          a < this.capacity && b < this.capacity
            ? order(this.priorities[a] as number, this.priorities[b] as number)
            : slow(a, b);
      case 'createdAt':
        return (a, b) =>
          a < this.capacity && b < this.capacity
            ? order(this.created[a] as number, this.created[b] as number)
            : slow(a, b);
      case 'updatedAt':
        return (a, b) =>
          a < this.capacity && b < this.capacity
            ? order(this.updated[a] as number, this.updated[b] as number)
            : slow(a, b);
      case 'closedAt':
        // No closed_at (NaN here) sorts first, as null does.
        return (a, b) => {
          if (a >= this.capacity || b >= this.capacity) return slow(a, b);
          const x = this.closed[a] as number;
          const y = this.closed[b] as number;
          if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1;
          return Number.isNaN(y) ? 1 : order(x, y);
        };
    }
  }

  /** The sort key of a stored ticket for a numeric field (the same as the domain's `sortKey`), or undefined for text. */
  key(id: number, field: SortField): SortKey | undefined {
    if (id >= this.capacity)
      return field === 'subject' ? undefined : (sortKey(this.farRow(id) as Ticket, field) as SortKey);
    switch (field) {
      case 'id':
        return id;
      case 'subject':
        return undefined;
      case 'state':
        return this.states[id];
      case 'priority':
        return this.priorities[id];
      case 'createdAt':
        return this.created[id];
      case 'updatedAt':
        return this.updated[id];
      case 'closedAt': {
        const at = this.closed[id] as number;
        return Number.isNaN(at) ? null : at;
      }
    }
  }

  private farRow(id: number): TicketRow {
    const t = this.far.get(id);
    if (t === undefined) throw new Error(`ticket ${id} has no recorded keys`);
    return t;
  }

  private write(t: TicketRow): void {
    this.states[t.id] = stateRank(t.state);
    this.priorities[t.id] = priorityRank(t.priority);
    this.created[t.id] = t.createdAt;
    this.updated[t.id] = t.updatedAt;
    this.closed[t.id] = t.closedAt ?? noTime;
  }

  private grow(atLeast: number): void {
    const capacity = Math.max(atLeast, 2 * this.capacity, 1024);
    const states = new Int8Array(capacity).fill(-1);
    states.set(this.states);
    this.states = states;
    this.priorities = copied(this.priorities, new Int8Array(capacity));
    this.created = copied(this.created, new Float64Array(capacity));
    this.updated = copied(this.updated, new Float64Array(capacity));
    this.closed = copied(this.closed, new Float64Array(capacity));
    this.capacity = capacity;
    for (const [id, t] of this.far) {
      if (id < capacity) {
        this.far.delete(id);
        this.write(t);
      }
    }
  }
}

const byId = (a: number, b: number): number => a - b;

const order = (x: number, y: number): number => (x < y ? -1 : x > y ? 1 : 0);

const copied = <A extends Int8Array | Float64Array>(from: A, to: A): A => {
  to.set(from);
  return to;
};
