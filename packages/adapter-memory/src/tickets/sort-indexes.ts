import { compareKeys, sortFields, sortKey, type SortField, type Ticket } from '@support/domain';
import { SortedList, type Probe } from '../sorted-list.js';
import type { SortKey } from './ticket-facts.js';

export type { SortKey } from './ticket-facts.js';

/**
 * One sorted list of live ticket ids per sort field, ordered by (the field's sort key, id):
 * walked forwards it is the order `field asc, id asc`, backwards `field desc, id desc`.
 * The lists hold ids only; keys are read through `key` (the stored ticket's), so the stored
 * ticket must be the indexed one while its entries are located (see `replace`).
 */
export class SortIndexes {
  private readonly lists: ReadonlyMap<SortField, SortedList<number>>;

  constructor(
    private readonly key: (id: number, field: SortField) => SortKey,
    load: number,
  ) {
    // Map: derived: an index of the tickets table, rebuilt by its restorer
    this.lists = new Map(
      sortFields.map((field) => [field, new SortedList<number>((a, b) => this.compareIds(field, a, b), load)] as const),
    );
  }

  list(field: SortField): SortedList<number> {
    const list = this.lists.get(field);
    if (list === undefined) throw new Error(`no index on ${field}`);
    return list;
  }

  keyOf(id: number, field: SortField): SortKey {
    return field === 'id' ? id : this.key(id, field);
  }

  /** Where an index entry lies relative to the key alone (every id with that key compares 0). */
  keyProbe(field: SortField, key: SortKey): Probe<number> {
    return (id) => compareKeys(this.keyOf(id, field), key);
  }

  /**
   * Moves a ticket's entries from its old state to its new one, touching only the lists whose
   * key changed (a deleted ticket has no entries). `store` must put the new ticket in place:
   * it runs after the old entries are located and before the new ones are.
   */
  replace(old: Ticket | undefined, next: Ticket, store: () => void): void {
    const wasLive = old !== undefined && old.deletedAt === null;
    const isLive = next.deletedAt === null;
    const moving = sortFields.filter(
      (f) => wasLive !== isLive || (wasLive && compareKeys(sortKey(old, f), sortKey(next, f)) !== 0),
    );
    if (wasLive) for (const f of moving) this.list(f).remove(old.id, this.entryProbe(f, old));
    store();
    if (isLive) for (const f of moving) this.list(f).insert(next.id, this.entryProbe(f, next));
  }

  /**
   * Fills the (empty) lists with these ids, each list sorted once: the start-up's way.
   * `order` (no tie break) is the keys' order read without boxing them (TicketTable.comparer).
   */
  build(ids: readonly number[], order: (field: SortField) => (a: number, b: number) => number): void {
    for (const [field, list] of this.lists) {
      if (list.size > 0) throw new Error(`the ${field} index is built already`);
      const compare = order(field);
      list.fill([...ids].sort((a, b) => compare(a, b) || a - b));
    }
  }

  private entryProbe(field: SortField, t: Ticket): Probe<number> {
    if (field === 'id') return (id) => id - t.id;
    const key = sortKey(t, field);
    return (id) => compareKeys(this.keyOf(id, field), key) || id - t.id;
  }

  private compareIds(field: SortField, a: number, b: number): number {
    return compareKeys(this.keyOf(a, field), this.keyOf(b, field)) || a - b;
  }
}
