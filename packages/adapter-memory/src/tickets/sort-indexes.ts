import {
  compareKeys,
  sortFieldId,
  sortFields,
  sortKey,
  type SortField,
  type SortRule,
  type Ticket,
} from '@support/domain';
import type { FieldIndex } from './field-index.js';
import { SortedList, type Probe } from '../sorted-list.js';
import { packedSort } from './numeric-keys.js';
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

  /** `custom`: a custom field's index (sort=cf.<key>: its sorted list holds the tickets with a value). */
  constructor(
    private readonly key: (id: number, field: SortField) => SortKey,
    load: number,
    private readonly custom: (fieldId: number) => FieldIndex | undefined = () => undefined,
  ) {
    // Map: derived: an index of the tickets table, rebuilt by its restorer
    this.lists = new Map(
      sortFields.map((field) => [field, new SortedList<number>((a, b) => this.compareIds(field, a, b), load)] as const),
    );
  }

  /** A custom field's index, when the rule sorts by one (undefined: by a ticket field, or a field deleted since). */
  customIndex(field: SortRule['field']): FieldIndex | undefined {
    const id = sortFieldId(field);
    return id === null ? undefined : this.custom(id);
  }

  list(field: SortRule['field']): SortedList<number> {
    const custom = this.customIndex(field);
    const list = custom === undefined ? this.lists.get(field as SortField) : (custom.sorted ?? undefined);
    if (list === undefined) throw new Error(`no index on ${field}`);
    return list;
  }

  keyOf(id: number, field: SortRule['field']): SortKey {
    if (field === 'id') return id;
    const custom = this.customIndex(field);
    if (custom !== undefined) return custom.key(id);
    if (sortFieldId(field) !== null) return null;
    return this.key(id, field as SortField);
  }

  /** Where an index entry lies relative to the key alone (every id with that key compares 0). */
  keyProbe(field: SortRule['field'], key: SortKey): Probe<number> {
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
   * `order` (no tie break) is the keys' order read without boxing them (TicketOrderings.comparer).
   */
  build(ids: readonly number[], order: (field: SortField) => (a: number, b: number) => number): void {
    for (const [field, list] of this.lists) {
      if (list.size > 0) throw new Error(`the ${field} index is built already`);
      list.fill(this.sortedForBuild(field, ids, order(field)));
    }
  }

  /**
   * The ids by (the field's key, id) for `build`, each field the cheapest way: state and
   * priority ranks counted into place or packed (packedSort: no comparator at all), the subjects
   * read once each and their positions sorted (a comparator that reads both rows cost two row
   * lookups per comparison, ~20M at a million tickets), the times with the facts' comparer.
   */
  private sortedForBuild(
    field: SortField,
    ids: readonly number[],
    compare: (a: number, b: number) => number,
  ): number[] {
    if (field === 'state' || field === 'priority') {
      const packed = packedSort(ids, (id) => this.key(id, field) as number);
      if (packed !== null) return packed;
    }
    if (field === 'subject') {
      const keys = ids.map((id) => this.key(id, field));
      const at = ids.map((_, i) => i);
      at.sort((i, j) => compareKeys(keys[i] as SortKey, keys[j] as SortKey) || (ids[i] as number) - (ids[j] as number));
      return at.map((i) => ids[i] as number);
    }
    return [...ids].sort((a, b) => compare(a, b) || a - b);
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
