import { IdSets } from './id-set.js';

/**
 * Ids grouped by a key (a customer, an assignee, a group), deleted tickets' too; empty groups
 * are dropped. Each group is an id set (id-set.ts): a bitset once dense (an assignee's or a
 * group's tickets, ~1 bit a ticket), a hash set while sparse (a customer's).
 */
export class Buckets {
  private readonly sets = new IdSets<number>();

  /** The ids under `key` (a snapshot: safe to change the buckets while walking it). */
  ids(key: number): number[] {
    const ids: number[] = [];
    this.sets.get(key).forEachSlice((values, start, end) => {
      for (let k = start; k < end; k++) ids.push(values[k] as number);
    });
    return ids;
  }

  /** Moves an id from one key to another; a null key means "in no bucket". */
  move(id: number, from: number | null, to: number | null): void {
    this.sets.move(id, from, to);
  }
}
