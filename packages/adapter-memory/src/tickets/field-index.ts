import {
  compareText,
  isTextType,
  tokenize,
  type CustomScalar,
  type CustomValue,
  type FieldType,
  type TicketFieldDefinition,
} from '@support/domain';
import { SortedList, type Probe } from '../sorted-list.js';
import { IdSet, IdSets } from './id-set.js';
import type { SortKey } from './ticket-facts.js';
import { WordIndex } from './word-index.js';

// The index of one custom field (contract §10) over the live tickets: built at start and when
// the field is defined, dropped when it is deleted. Every live ticket is either in `absent`
// (no value) or holds a value, which is
//   - in `sorted`, ordered by (value, id): equality runs, ranges and sort=cf.<key> (every
//     type but multiselect);
//   - in `byValue`, a set per value (checkbox, dropdown, each option of a multiselect): ORs
//     and ALLs as unions and intersections of sets, bitsets once dense (id-set.ts);
//   - in `words` (text, textarea, regexp): `q`.
// Sort keys are numbers where the order allows (integer, decimal; a date as YYYYMMDD; a
// checkbox as 0/1; a dropdown as its option's rank by value), kept in an array by id so that a
// search compares two tickets without reading their rows; text is read from the row.

const noKey = Number.NaN;

const dateKey = (d: string): number =>
  Number(d.slice(0, 4)) * 10000 + Number(d.slice(5, 7)) * 100 + Number(d.slice(8, 10));

const setTypes: readonly FieldType[] = ['checkbox', 'dropdown', 'multiselect'];

export class FieldIndex {
  readonly sorted: SortedList<number> | null;
  readonly absent = new IdSet(true);
  readonly byValue: IdSets<CustomScalar> | null;
  readonly words: WordIndex | null;
  private keys = new Float64Array(0);
  private readonly numeric: boolean;
  private readonly ranks: ReadonlyMap<string, number>;

  constructor(
    private definition: TicketFieldDefinition,
    private readonly valueOf: (id: number) => CustomValue | undefined,
    load: number,
    alwaysDense: boolean,
  ) {
    const def = definition;
    const { type } = def;
    this.numeric = !isTextType(type) && type !== 'multiselect';
    this.sorted = type === 'multiselect' ? null : new SortedList<number>((a, b) => this.compareIds(a, b), load);
    this.byValue = setTypes.includes(type) ? new IdSets<CustomScalar>(alwaysDense) : null;
    this.words = isTextType(type) ? new WordIndex(load) : null;
    const values = def.options.map((o) => o.value).sort(compareText);
    // Map: derived: each option's rank, from the field's definition
    this.ranks = new Map(values.map((v, i) => [v, i]));
  }

  get id(): number {
    return this.definition.id;
  }

  get def(): TicketFieldDefinition {
    return this.definition;
  }

  /** A changed definition with the same options: the index holds as it is. */
  redefine(def: TicketFieldDefinition): void {
    this.definition = def;
  }

  /** The sort key of a value: a number where the type allows, else the text. */
  keyOfValue(v: CustomScalar): number | string {
    switch (this.def.type) {
      case 'integer':
      case 'decimal':
        return v as number;
      case 'date':
        return dateKey(v as string);
      case 'checkbox':
        return v === true ? 1 : 0;
      case 'dropdown':
        return this.ranks.get(v as string) ?? -1;
      default:
        return v as string;
    }
  }

  /** A live ticket's sort key: null when it has no value. */
  key(id: number): SortKey {
    if (this.numeric) {
      const k = this.keys[id];
      return k === undefined || Number.isNaN(k) ? null : k;
    }
    const v = this.valueOf(id);
    return typeof v === 'string' ? v : null;
  }

  /** Where an entry of `sorted` lies relative to a key alone. */
  keyProbe(key: number | string): Probe<number> {
    return (id) => compareSortKeys(this.key(id), key);
  }

  /** Adds a live ticket's value (undefined: none). */
  add(id: number, v: CustomValue | undefined): void {
    if (v === undefined) {
      this.absent.add(id);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v as readonly string[]) this.byValue?.add(x, id);
      return;
    }
    const s = v as CustomScalar;
    const key = this.keyOfValue(s);
    if (this.numeric) {
      if (id >= this.keys.length) this.grow(id);
      this.keys[id] = key as number;
    }
    this.sorted?.insert(id, (x) => compareSortKeys(this.key(x), key) || x - id);
    this.byValue?.add(s, id);
    if (this.words !== null) this.words.replace(id, [], [...new Set(tokenize(s as string))]);
  }

  /** Removes a live ticket's value (as it was indexed). */
  remove(id: number, v: CustomValue | undefined): void {
    if (v === undefined) {
      this.absent.delete(id);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v as readonly string[]) this.byValue?.remove(x, id);
      return;
    }
    const s = v as CustomScalar;
    const key = this.keyOfValue(s);
    this.sorted?.remove(id, (x) => compareSortKeys(this.key(x), key) || x - id);
    if (this.numeric) this.keys[id] = noKey;
    this.byValue?.remove(s, id);
    if (this.words !== null) this.words.replace(id, [...new Set(tokenize(s as string))], []);
  }

  /** Fills the (new) index with these live tickets, the sorted list sorted once. */
  build(ids: readonly number[]): void {
    const holding: number[] = [];
    for (const id of ids) {
      const v = this.valueOf(id);
      if (v === undefined) {
        this.absent.add(id);
        continue;
      }
      if (Array.isArray(v)) {
        for (const x of v as readonly string[]) this.byValue?.add(x, id);
        continue;
      }
      const s = v as CustomScalar;
      if (this.numeric) {
        if (id >= this.keys.length) this.grow(id);
        this.keys[id] = this.keyOfValue(s) as number;
      }
      holding.push(id);
      this.byValue?.add(s, id);
      if (this.words !== null) this.words.replace(id, [], [...new Set(tokenize(s as string))]);
    }
    if (this.sorted !== null) this.sorted.fill(holding.sort((a, b) => this.compareIds(a, b)));
  }

  private compareIds(a: number, b: number): number {
    return compareSortKeys(this.key(a), this.key(b)) || a - b;
  }

  private grow(id: number): void {
    const keys = new Float64Array(Math.max(id + 1, 2 * this.keys.length, 1024)).fill(noKey);
    keys.set(this.keys);
    this.keys = keys;
  }
}

/** Two sort keys of one field (both numbers or both text); null (no value) first, as in every sort index. */
export const compareSortKeys = (a: SortKey, b: SortKey): number => {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  return compareText(a as string, b as string);
};
