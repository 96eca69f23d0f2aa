import {
  compareByRule,
  compareText,
  customSortField,
  isTextType,
  tokenize,
  type CustomScalar,
  type CustomValue,
  type FieldType,
  type SortDirection,
  type SortRule,
  type TicketFieldDefinition,
} from '@support/domain';
import { SortedList, type Probe } from '../sorted-list.js';
import { IdSet, IdSets } from './id-set.js';
import { packedSort, rankedSort } from './numeric-keys.js';
import type { SortKey } from './ticket-facts.js';
import { CodeColumn, NumberColumn, type ValueColumn } from './value-columns.js';
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
// checkbox as 0/1; a dropdown as its option's rank by value), read from the field's column of
// values (value-columns.ts: the numbers themselves, or a key per distinct value's code), so that
// a search compares two tickets without reading their rows; text is the column's string.

const dateKey = (d: string): number =>
  Number(d.slice(0, 4)) * 10000 + Number(d.slice(5, 7)) * 100 + Number(d.slice(8, 10));

const setTypes: readonly FieldType[] = ['checkbox', 'dropdown', 'multiselect'];

export class FieldIndex {
  readonly sorted: SortedList<number> | null;
  readonly absent = new IdSet(true);
  readonly byValue: IdSets<CustomScalar> | null;
  readonly words: WordIndex | null;
  private readonly numeric: boolean;
  private readonly ranks: ReadonlyMap<string, number>;
  /** The sort key of each code of a coded column (filled as codes are met). */
  private readonly codeKeys: number[] = [];
  /** ruleOrder's comparers, by direction (made on first use). */
  private readonly orders: { asc?: (a: number, b: number) => number; desc?: (a: number, b: number) => number } = {};

  /** `values`: the field's column (value-columns.ts), which the table writes; replaced by `useColumn`. */
  constructor(
    private definition: TicketFieldDefinition,
    private values: ValueColumn,
    load: number,
    alwaysDense: boolean,
  ) {
    const def = definition;
    const { type } = def;
    this.numeric = !isTextType(type) && type !== 'multiselect';
    this.sorted = type === 'multiselect' ? null : new SortedList<number>((a, b) => this.compareIds(a, b), load);
    this.byValue = setTypes.includes(type) ? new IdSets<CustomScalar>(alwaysDense) : null;
    this.words = isTextType(type) ? new WordIndex(load) : null;
    const options = def.options.map((o) => o.value).sort(compareText);
    // Map: derived: each option's rank, from the field's definition
    this.ranks = new Map(options.map((v, i) => [v, i]));
  }

  get id(): number {
    return this.definition.id;
  }

  get def(): TicketFieldDefinition {
    return this.definition;
  }

  /** The column of the field's values (a ticket's value is read from it). */
  get column(): ValueColumn {
    return this.values;
  }

  /** The column that replaced the field's (an AnyColumn: value-columns.ts), holding the same values. */
  useColumn(column: ValueColumn): void {
    this.values = column;
    this.codeKeys.length = 0;
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
    const column = this.values;
    if (column instanceof NumberColumn) return column.keys.get(id);
    if (column instanceof CodeColumn) {
      const code = column.code(id);
      return code === 0 ? null : (this.codeKeys[code] ?? this.keyOfCode(column, code));
    }
    const v = column.get(id);
    if (v === undefined || Array.isArray(v)) return null;
    return this.numeric ? this.keyOfValue(v as CustomScalar) : typeof v === 'string' ? v : null;
  }

  private keyOfCode(column: CodeColumn, code: number): number | null {
    const v = column.valueOf(code);
    if (Array.isArray(v)) return null;
    const key = this.keyOfValue(v as CustomScalar);
    if (typeof key !== 'number') return null;
    this.codeKeys[code] = key;
    return key;
  }

  /**
   * The order of two live tickets under sort=cf.<key> in a direction: by their keys, the unset
   * last in both directions (the domain's compareByRule). One comparer per direction for the
   * index's lifetime (TicketOrderings.ruleComparer: comparers made per search lost their optimised
   * code at every full GC); a changed field's new index, or a deleted field, has none of them.
   */
  ruleOrder(direction: SortDirection): (a: number, b: number) => number {
    const kept = this.orders[direction];
    if (kept !== undefined) return kept;
    const rule: SortRule = { field: customSortField(this.id), direction };
    const made = (a: number, b: number): number => compareByRule(rule, this.key(a), this.key(b));
    this.orders[direction] = made;
    return made;
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
   * the words); its sort key when `sorted` should hold it (a scalar), else null.
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
    this.byValue?.remove(s, id);
    if (this.words !== null) this.words.replace(id, [...new Set(tokenize(s as string))], []);
  }

  /** Fills the (new) index with these live tickets, the sorted list sorted once. */
  build(ids: readonly number[]): void {
    const bulk = this.bulk();
    for (const id of ids) bulk.take(id, this.values.get(id));
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
    return {
      take: (id, v) => {
        const key = this.place(id, v);
        if (key === null) return;
        if (!this.numeric && this.sorted !== null) texts.push(key as string);
        holding.push(id);
      },
      end: () => {
        if (this.sorted === null) return;
        if (this.numeric) {
          const keyOf = (id: number) => this.key(id) as number;
          // Decimals and wide integers by their ranks (rankedSort): still no comparator per pair.
          const packed = packedSort(holding, keyOf) ?? rankedSort(holding, keyOf);
          if (packed !== null) {
            this.sorted.fill(packed);
            return;
          }
          holding.sort((a, b) => {
            const ka = this.key(a) as number;
            const kb = this.key(b) as number;
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
