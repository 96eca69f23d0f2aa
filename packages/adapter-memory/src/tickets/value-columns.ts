import type { CustomValue, FieldType } from '@support/domain';
import { ownString } from '../copies.js';
import { chunkSize, NumericKeys } from './numeric-keys.js';

// The tickets' custom values (contract §10), kept outside the ticket rows: one column per field
// id, indexed by ticket id (ids come from a sequence: dense), for every stored ticket, deleted
// ones too. A stored ticket holds no object of its own for its values: a number is 4 or 8
// bytes in its field's column (integer, decimal: NumericKeys, which are also the field's sort
// keys), a dropdown, checkbox, date or multiselect value a 1- or 2-byte code into the field's
// distinct values (one string per option or date, one frozen list per multiselect
// combination), a text its string in a chunked array. At a million tickets with 20 fields that
// is a few MB a field instead of a ~210-byte values object a ticket (docs/benchmarks.md). A
// field id without a definition (a field deleted before a restart) or a value a typed column
// cannot hold (wrong type, too many distinct values, an id far beyond the others) is kept in
// a plain map instead (AnyColumn): the values a ticket was given are always the ones it has.

export interface ValueColumn {
  readonly kind: 'number' | 'code' | 'text' | 'any';
  get(id: number): CustomValue | undefined;
  /** Sets (undefined: clears) a ticket's value; false when this column cannot hold it (nothing changed). */
  set(id: number, v: CustomValue | undefined, reach: number): boolean;
  /** Every id with a value, ascending for the typed columns. */
  forEach(visit: (id: number, v: CustomValue) => void): void;
}

/** A value as a column keeps it: its own strings (copies.ts, `ownString`), a list frozen. */
const ownValue = (v: CustomValue): CustomValue => {
  if (typeof v === 'string') return ownString(v);
  return Array.isArray(v) ? Object.freeze((v as readonly string[]).map(ownString)) : v;
};

/** Integer and decimal values: the field's sort keys are the values themselves. */
export class NumberColumn implements ValueColumn {
  readonly kind = 'number';
  readonly keys = new NumericKeys();

  get(id: number): CustomValue | undefined {
    return this.keys.get(id) ?? undefined;
  }

  set(id: number, v: CustomValue | undefined, reach: number): boolean {
    if (v === undefined) {
      this.keys.clear(id);
      return true;
    }
    if (typeof v !== 'number' || Number.isNaN(v) || id >= reach) return false;
    this.keys.set(id, v);
    return true;
  }

  forEach(visit: (id: number, v: CustomValue) => void): void {
    for (let id = 0; id < this.keys.length; id++) {
      const v = this.keys.get(id);
      if (v !== null) visit(id, v);
    }
  }
}

/** At most this many distinct values in a coded column (then it moves to an AnyColumn). */
const maxCodes = 65_535;

/** Dropdown and date (strings), checkbox (booleans) and multiselect (lists) values as codes into the distinct values. */
export class CodeColumn implements ValueColumn {
  readonly kind = 'code';
  /** Codes by id in chunks of `chunkSize` ids (made at their first value), 1 byte each, 2 from the 256th value. */
  private chunks: (Uint8Array | Uint16Array | undefined)[] = [];
  /** Each code's value; code 0 is "no value". */
  private readonly values: (CustomValue | undefined)[] = [undefined];
  // Map: derived: each distinct value's code, rebuilt from the stored tickets at start
  private readonly byKey = new Map<string | boolean, number>();

  constructor(private readonly takes: 'string' | 'boolean' | 'list') {}

  /** A ticket's code, 0 when it has no value. */
  code(id: number): number {
    const at = Math.floor(id / chunkSize);
    return this.chunks[at]?.[id - at * chunkSize] ?? 0;
  }

  /** The value of a code (1 and up). */
  valueOf(code: number): CustomValue {
    return this.values[code] as CustomValue;
  }

  get(id: number): CustomValue | undefined {
    return this.values[this.code(id)];
  }

  set(id: number, v: CustomValue | undefined, reach: number): boolean {
    const at = Math.floor(id / chunkSize);
    if (v === undefined) {
      const chunk = this.chunks[at];
      if (chunk !== undefined) chunk[id - at * chunkSize] = 0;
      return true;
    }
    if (id >= reach) return false;
    const code = this.codeOf(v);
    if (code === 0) return false;
    let chunk = this.chunks[at];
    if (chunk === undefined) {
      while (this.chunks.length < at) this.chunks.push(undefined);
      chunk = this.values.length > 256 ? new Uint16Array(chunkSize) : new Uint8Array(chunkSize);
      this.chunks[at] = chunk;
    }
    chunk[id - at * chunkSize] = code;
    return true;
  }

  forEach(visit: (id: number, v: CustomValue) => void): void {
    this.chunks.forEach((chunk, at) => {
      chunk?.forEach((code, k) => {
        if (code !== 0) visit(at * chunkSize + k, this.values[code] as CustomValue);
      });
    });
  }

  private codeOf(v: CustomValue): number {
    const key = this.keyOf(v);
    if (key === null) return 0;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const code = this.values.length;
    if (code > maxCodes) return 0;
    this.values.push(ownValue(v));
    this.byKey.set(key, code);
    if (code === 256) this.chunks = this.chunks.map((chunk) => (chunk === undefined ? chunk : Uint16Array.from(chunk)));
    return code;
  }

  /** The value's key among the distinct ones; null when this column does not take it. */
  private keyOf(v: CustomValue): string | boolean | null {
    if (this.takes === 'list')
      return Array.isArray(v) && (v as unknown[]).every((x) => typeof x === 'string') ? JSON.stringify(v) : null;
    return typeof v === this.takes ? (v as string | boolean) : null;
  }
}

/** Text, textarea and regexp values: the strings in chunks of 4,096 ids (a chunk made at its first value). */
export class TextColumn implements ValueColumn {
  readonly kind = 'text';
  private readonly chunks: ((string | undefined)[] | undefined)[] = [];

  get(id: number): CustomValue | undefined {
    return this.chunks[Math.floor(id / chunkSize)]?.[id % chunkSize];
  }

  set(id: number, v: CustomValue | undefined, reach: number): boolean {
    if (v !== undefined && (typeof v !== 'string' || id >= reach)) return false;
    const at = Math.floor(id / chunkSize);
    let chunk = this.chunks[at];
    if (chunk === undefined) {
      if (v === undefined) return true;
      while (this.chunks.length < at) this.chunks.push(undefined);
      chunk = new Array<string | undefined>(chunkSize).fill(undefined);
      this.chunks[at] = chunk;
    }
    chunk[id % chunkSize] = v === undefined ? v : ownString(v);
    return true;
  }

  forEach(visit: (id: number, v: CustomValue) => void): void {
    this.chunks.forEach((chunk, at) => {
      chunk?.forEach((v, k) => {
        if (v !== undefined) visit(at * chunkSize + k, v);
      });
    });
  }
}

/** Any value by id: a field without a definition, or values a typed column refused. */
export class AnyColumn implements ValueColumn {
  readonly kind = 'any';
  // Map: derived: custom values by ticket id, rebuilt from the stored tickets at start
  private readonly values = new Map<number, CustomValue>();

  get(id: number): CustomValue | undefined {
    return this.values.get(id);
  }

  set(id: number, v: CustomValue | undefined): boolean {
    if (v === undefined) this.values.delete(id);
    else this.values.set(id, ownValue(v));
    return true;
  }

  forEach(visit: (id: number, v: CustomValue) => void): void {
    this.values.forEach((v, id) => {
      visit(id, v);
    });
  }
}

/** The column a field of this type starts with (none: a field id without a definition). */
export const columnFor = (type: FieldType | null): ValueColumn => {
  switch (type) {
    case 'integer':
    case 'decimal':
      return new NumberColumn();
    case 'dropdown':
    case 'date':
      return new CodeColumn('string');
    case 'checkbox':
      return new CodeColumn('boolean');
    case 'multiselect':
      return new CodeColumn('list');
    case 'text':
    case 'textarea':
    case 'regexp':
      return new TextColumn();
    default:
      return new AnyColumn();
  }
};
