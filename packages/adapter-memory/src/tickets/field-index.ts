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
import { NumericKeys } from './numeric-keys.js';
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

/** At most this many shared dates or multiselect lists per field (both sets are small in practice). */
const maxShared = 65_536;

const dateKey = (d: string): number =>
  Number(d.slice(0, 4)) * 10000 + Number(d.slice(5, 7)) * 100 + Number(d.slice(8, 10));

const setTypes: readonly FieldType[] = ['checkbox', 'dropdown', 'multiselect'];

export class FieldIndex {
  readonly sorted: SortedList<number> | null;
  readonly absent = new IdSet(true);
  readonly byValue: IdSets<CustomScalar> | null;
  readonly words: WordIndex | null;
  private readonly keys = new NumericKeys();
  private readonly numeric: boolean;
  private readonly ranks: ReadonlyMap<string, number>;
  /** Each option's value, the one string a ticket's copy holds (`shared`). */
  private readonly options: ReadonlyMap<string, string>;
  // Map: derived: shared copies of values (`shared`), rebuilt from the rows at start
  private readonly dates = new Map<string, string>();
  // Map: derived: shared copies of values (`shared`), rebuilt from the rows at start
  private readonly lists = new Map<string, readonly string[]>();

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
    // Map: derived: each option's value, from the field's definition
    this.options = new Map(values.map((v) => [v, v]));
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
      return this.keys.get(id);
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
    const key = this.place(id, v);
    if (key !== null) this.sorted?.insert(id, (x) => compareSortKeys(this.key(x), key) || x - id);
  }

  /**
   * Indexes a live ticket's value everywhere but in `sorted` (the unset set, the value sets,
   * the words, the numeric key); its sort key when `sorted` should hold it (a scalar), else null.
   * `add` places it at once, a bulk fill sorts them all at its end.
   */
  private place(id: number, v: CustomValue | undefined): number | string | null {
    if (v === undefined) {
      this.absent.add(id);
      return null;
    }
    if (Array.isArray(v)) {
      for (const x of v as readonly string[]) this.byValue?.add(x, id);
      return null;
    }
    const s = v as CustomScalar;
    const key = this.keyOfValue(s);
    if (this.numeric) this.keys.set(id, key as number);
    this.byValue?.add(s, id);
    if (this.words !== null) this.words.replace(id, [], [...new Set(tokenize(s as string))]);
    return key;
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
    if (this.numeric) this.keys.clear(id);
    this.byValue?.remove(s, id);
    if (this.words !== null) this.words.replace(id, [...new Set(tokenize(s as string))], []);
  }

  /** Fills the (new) index with these live tickets, the sorted list sorted once. */
  build(ids: readonly number[]): void {
    const bulk = this.bulk();
    for (const id of ids) bulk.take(id, this.valueOf(id));
    bulk.end();
  }

  /**
   * A bulk fill of the (new) index, ticket by ticket in ascending ids (`take`), the sorted list
   * sorted once at the `end` by keys gathered on the way: the start fills every field's index in
   * one pass over the rows (ticket-table.ts, `restored`), and no comparison reads a row.
   */
  bulk(): { take(id: number, v: CustomValue | undefined): void; end(): void } {
    const holding: number[] = [];
    const texts: string[] = [];
    let top = -1;
    return {
      take: (id, v) => {
        const key = this.place(id, v);
        if (key === null) return;
        if (this.numeric) top = id;
        else if (this.sorted !== null) texts.push(key as string);
        holding.push(id);
      },
      end: () => {
        if (this.numeric) this.keys.fit(top);
        if (this.sorted === null) return;
        const keys = this.keys;
        if (this.numeric) {
          const packed = keys.sortedIds(holding);
          if (packed !== null) {
            this.sorted.fill(packed);
            return;
          }
          holding.sort((a, b) => {
            const ka = keys.get(a) as number;
            const kb = keys.get(b) as number;
            return ka < kb ? -1 : ka > kb ? 1 : a - b;
          });
          this.sorted.fill(holding);
          return;
        }
        // Text: positions sorted by the gathered strings (ids ascend, so a tie keeps its order).
        const at = holding.map((_, i) => i);
        at.sort((i, j) => compareText(texts[i] as string, texts[j] as string) || i - j);
        this.sorted.fill(at.map((i) => holding[i] as number));
      },
    };
  }

  /**
   * The value as the index's own copy would hold it: an option's value (dropdown, multiselect)
   * and a date are the one string this index keeps for it, and a multiselect's list is one
   * frozen list per combination, so that a million tickets holding "gold" hold one string, not
   * a million (the start decodes a new one for each; contract §10's closed sets make this safe).
   * Other values are returned as they are.
   */
  get shares(): boolean {
    const type = this.def.type;
    return type === 'dropdown' || type === 'multiselect' || type === 'date';
  }

  shared(v: CustomValue): CustomValue {
    if (Array.isArray(v)) {
      const list = v as readonly string[];
      const key = list.join('\u0000');
      const known = this.lists.get(key);
      if (known !== undefined) return known;
      const made = Object.freeze(list.map((x) => this.shareText(x)));
      if (this.lists.size < maxShared) this.lists.set(key, made);
      return made;
    }
    return typeof v === 'string' ? this.shareText(v) : v;
  }

  private shareText(v: string): string {
    const type = this.def.type;
    if (type === 'dropdown' || type === 'multiselect') return this.options.get(v) ?? v;
    if (type !== 'date') return v;
    const known = this.dates.get(v);
    if (known !== undefined) return known;
    if (this.dates.size < maxShared) this.dates.set(v, v);
    return v;
  }

  private compareIds(a: number, b: number): number {
    return compareSortKeys(this.key(a), this.key(b)) || a - b;
  }
}

/** Two sort keys of one field (both numbers or both text); null (no value) first, as in every sort index. */
export const compareSortKeys = (a: SortKey, b: SortKey): number => {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  return compareText(a as string, b as string);
};
