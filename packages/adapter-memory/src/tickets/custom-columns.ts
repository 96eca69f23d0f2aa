import type { CustomValue, CustomValues, FieldType } from '@support/domain';
import { AnyColumn, columnFor, type ValueColumn } from './value-columns.js';

// The columns of every custom field (value-columns.ts holds one column's kinds): a ticket's
// values are written into them and read back out of them, for the table and for callers.

/** A field id as the index V8 keeps it under (an object's element), or null when it names no element. */
const elementIndex = (fieldId: string): number | null => {
  const n = Number(fieldId);
  return Number.isInteger(n) && n >= 0 && n < 2 ** 32 - 1 && String(n) === fieldId ? n : null;
};

/**
 * An object whose elements store has exactly the room for these keys' indexes, holding only the
 * largest (CustomColumns.sized), or null (`{}` then) when the largest is far past their count (a
 * store mostly holes) or 63 or more: V8 keeps a store of 64 slots or more that is mostly holes
 * as a dictionary, which a clone does not copy (checked: ids 40-100 and up).
 */
const roomFor = (keys: readonly (number | string)[]): { room: object; last: number } | null => {
  let max = -1;
  for (const key of keys) if (typeof key === 'number' && key > max) max = key;
  if (max < 0 || max > 2 * keys.length + 16 || max >= 63) return null;
  // Parsed from JSON, indexes 0..max get a store of exactly that size; deleting all but the
  // largest leaves it so (measured: 21 slots for 20 fields; deleting the largest too trims it).
  const room = JSON.parse(`{${Array.from({ length: max + 1 }, (_, i) => `"${String(i)}":0`).join(',')}}`) as object;
  for (let i = 0; i < max; i++) Reflect.deleteProperty(room, i);
  return { room, last: max };
};

/**
 * Every field's column, by field id as a ticket's values name it (a decimal string). A column
 * that refuses a value (see AnyColumn) is replaced by an AnyColumn holding what it held, and
 * `replaced` tells the field's index.
 */
export class CustomColumns {
  // Map: derived: the custom values' columns, rebuilt from the stored tickets at start
  private readonly byField = new Map<string, ValueColumn>();
  /** The same columns in two arrays, for `valuesOf` (a Map's entries would be an array each: garbage per read). */
  private readonly fieldIds: string[] = [];
  private readonly columns: ValueColumn[] = [];
  /** Each column's field id as a ticket's values object is keyed: a number (an element's index), else the string. */
  private readonly keys: (number | string)[] = [];
  /**
   * An object whose elements store has exactly the room for every column's field id that is an
   * array index (V8 keeps those as an object's elements, not as named properties), holding only
   * the largest: a ticket's values object is a clone of it (`{ ...sized }`, which V8 makes by
   * copying the store), so setting the values grows no store. Set on `{}` one by one, they grew
   * it twice for 20 fields (19 slots, then 46; the first garbage). `{}` when the ids are too far
   * apart for such a store to pay.
   */
  private sized: object = {};
  /** The column whose field id `sized` holds (its key is deleted from a copy of a ticket without its value); -1: none. */
  private sizedAt = -1;

  constructor(private readonly replaced: (fieldId: string, column: ValueColumn) => void) {}

  /** The column of a field, made for its type (null: no definition) when it has none. */
  column(fieldId: string, type: FieldType | null): ValueColumn {
    let column = this.byField.get(fieldId);
    if (column === undefined) {
      column = columnFor(type);
      this.byField.set(fieldId, column);
      this.fieldIds.push(fieldId);
      this.columns.push(column);
      this.keys.push(elementIndex(fieldId) ?? fieldId);
      const room = roomFor(this.keys);
      this.sized = room?.room ?? {};
      this.sizedAt = room === null ? -1 : this.keys.indexOf(room.last);
    }
    return column;
  }

  /**
   * Writes a ticket's values: sets those given and clears every other field's (`fresh`: a
   * ticket restored at start, which holds none yet). Ids at or past `reach` are far beyond
   * the stored tickets (a typed column would be mostly empty): kept in an AnyColumn.
   */
  write(id: number, values: CustomValues, reach: number, fresh: boolean): void {
    for (const fieldId in values) {
      const v = values[fieldId] as CustomValue;
      const column = this.column(fieldId, null);
      if (!column.set(id, v, reach)) this.widen(fieldId, column).set(id, v, reach);
    }
    if (fresh) return;
    const { fieldIds, columns } = this;
    for (let k = 0; k < columns.length; k++)
      if (!((fieldIds[k] as string) in values)) (columns[k] as ValueColumn).set(id, undefined, reach);
  }

  /**
   * A caller's copy of a ticket's values (lists copied): `valuesOf`, but its object made at an
   * allocation site of its own, which V8 does not pretenure with the kept ones (copies.ts,
   * `callerTicket`).
   */
  callerValues(id: number): Record<string, CustomValue> {
    const out: Record<number | string, CustomValue> = { ...this.sized };
    const { keys, columns, sizedAt } = this;
    for (let k = 0; k < columns.length; k++) {
      const v = (columns[k] as ValueColumn).get(id);
      if (v !== undefined) out[keys[k] as number | string] = Array.isArray(v) ? [...(v as readonly string[])] : v;
      else if (k === sizedAt) Reflect.deleteProperty(out, keys[k] as number | string);
    }
    return out;
  }

  /** A ticket's values keyed by field id, the lists the columns' frozen ones (kept tickets; callers get `callerValues`). */
  valuesOf(id: number): Record<string, CustomValue> {
    const out: Record<string, CustomValue> = {};
    const { fieldIds, columns } = this;
    for (let k = 0; k < columns.length; k++) {
      const v = (columns[k] as ValueColumn).get(id);
      if (v !== undefined) out[fieldIds[k] as string] = v;
    }
    return out;
  }

  private widen(fieldId: string, from: ValueColumn): ValueColumn {
    const column = new AnyColumn();
    from.forEach((id, v) => column.set(id, v));
    this.byField.set(fieldId, column);
    this.columns[this.fieldIds.indexOf(fieldId)] = column;
    this.replaced(fieldId, column);
    return column;
  }
}
