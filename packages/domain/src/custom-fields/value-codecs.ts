import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { failWith } from '../codecs/field-codecs.js';
import { shaped } from '../codecs/value-shape.js';
import { codePointLength } from '../text.js';
import { customFieldLimits as limits, type FieldType } from './field-type.js';
import { compilePattern } from './pattern.js';
import type { CustomValue } from './value.js';

// One codec per type of custom field (contract §10): what a ticket body may give as a value.
// Each decodes to the value a ticket keeps, or `null` (unset): null itself, an empty text and
// an empty multiselect all unset the field. Failures carry a field-error code (field-codecs.ts).

const loneSurrogate = /\p{Cs}/u;

/** A codec of one type's values: decodes to the kept value, or null (unset). */
export type Decoded<A> = t.Decoder<unknown, A | null>;

const codec = <A>(name: string, validate: (u: unknown, c: t.Context) => t.Validation<A | null>): Decoded<A> =>
  new t.Type<A | null, unknown, unknown>(name, (u): u is A | null => E.isRight(validate(u, [])), validate, t.identity);

/** text, textarea: a string of at most `max` characters (code points). */
export const textCodec = (max: number): Decoded<string> =>
  codec(`text of at most ${max} characters`, (u, c) => {
    if (u === null) return t.success(null);
    if (typeof u !== 'string') return failWith(u, c, 'invalid_type', 'must be a string');
    if (loneSurrogate.test(u))
      return failWith(u, c, 'invalid_value', 'must be Unicode text: it holds a UTF-16 surrogate without its pair');
    const n = codePointLength(u);
    if (n > max) return failWith(u, c, 'invalid_length', `must be at most ${max} characters long (got ${n})`);
    return t.success(u === '' ? null : u);
  });

export const integerCodec: Decoded<number> = codec('safe integer', (u, c) => {
  if (u === null) return t.success(null);
  if (typeof u !== 'number') return failWith(u, c, 'invalid_type', 'must be an integer');
  if (!Number.isSafeInteger(u))
    return failWith(u, c, 'invalid_value', 'must be an integer between -9007199254740991 and 9007199254740991');
  return t.success(u === 0 ? 0 : u);
});

/** How many digits follow the point in the shortest form of a finite number. */
export const decimalPlaces = (n: number): number => {
  const s = String(Math.abs(n));
  const e = s.indexOf('e');
  if (e >= 0) {
    const exponent = Number(s.slice(e + 1));
    const mantissa = s.slice(0, e);
    const dot = mantissa.indexOf('.');
    const digits = dot < 0 ? 0 : mantissa.length - dot - 1;
    return Math.max(0, digits - exponent);
  }
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
};

/** Whether a number is a decimal this service keeps exactly (at most 4 decimals, 15 significant digits). */
export const isDecimal = (n: number): boolean =>
  Number.isFinite(n) && Math.abs(n) < limits.decimalBound && decimalPlaces(n) <= limits.decimals;

export const decimalCodec: Decoded<number> = codec('decimal with at most 4 decimals', (u, c) => {
  if (u === null) return t.success(null);
  if (typeof u !== 'number') return failWith(u, c, 'invalid_type', 'must be a number');
  if (decimalPlaces(u) > limits.decimals)
    return failWith(u, c, 'invalid_value', `must have at most ${limits.decimals} decimals`);
  if (!isDecimal(u)) return failWith(u, c, 'invalid_value', 'must lie between -99999999999.9999 and 99999999999.9999');
  return t.success(u === 0 ? 0 : u);
});

const dateShape = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a string is a calendar date YYYY-MM-DD (year 0001-9999). */
export const isCalendarDate = (s: string): boolean => {
  const m = dateShape.exec(s);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(2000, mo, 0)).getUTCDate();
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (mo === 2 ? (leap ? 29 : 28) : days);
};

export const dateCodec: Decoded<string> = codec('date YYYY-MM-DD', (u, c) => {
  if (u === null) return t.success(null);
  if (typeof u !== 'string') return failWith(u, c, 'invalid_type', 'must be a date string (YYYY-MM-DD)');
  if (!isCalendarDate(u))
    return failWith(u, c, 'invalid_value', 'must be a date YYYY-MM-DD that the calendar has, like 2026-03-01');
  return t.success(u);
});

export const checkboxCodec: Decoded<boolean> = codec('boolean', (u, c) => {
  if (u === null) return t.success(null);
  return typeof u === 'boolean' ? t.success(u) : failWith(u, c, 'invalid_type', 'must be true or false');
});

const listing = (values: readonly string[]): string => {
  const shown = values.slice(0, 20).join(', ');
  return values.length > 20 ? `${shown}, ... (${values.length} in all)` : shown;
};

export const dropdownCodec = (values: readonly string[]): Decoded<string> =>
  codec('one of the options', (u, c) => {
    if (u === null || u === '') return t.success(null);
    if (typeof u !== 'string') return failWith(u, c, 'invalid_type', 'must be a string (one of the options)');
    return values.includes(u) ? t.success(u) : failWith(u, c, 'invalid_value', `must be one of: ${listing(values)}`);
  });

/** A set of option values: at most 50 (refused by length before an item is read), duplicates dropped. */
export const multiselectCodec = (values: readonly string[]): Decoded<readonly string[]> =>
  codec('list of options', (u, c) => {
    if (u === null) return t.success(null);
    if (!Array.isArray(u)) return failWith(u, c, 'invalid_type', 'must be an array of option values');
    if (u.length > limits.multiselect)
      return failWith(u, c, 'invalid_length', `must hold at most ${limits.multiselect} values (got ${u.length})`);
    const out: string[] = [];
    for (const x of u as unknown[]) {
      if (typeof x !== 'string' || !values.includes(x))
        return failWith(u, c, 'invalid_value', `must hold only options: ${listing(values)}`);
      if (!out.includes(x)) out.push(x);
    }
    return t.success(out.length === 0 ? null : out);
  });

/** A text of at most 255 characters that the field's RE2 pattern matches. */
export const regexpCodec = (pattern: string): Decoded<string> => {
  const text = textCodec(limits.regexp);
  const test = compilePattern(pattern);
  return codec(`text matching ${pattern}`, (u, c) => {
    const r = text.validate(u, c);
    if (E.isLeft(r) || r.right === null) return r;
    if (E.isLeft(test) || !test.right(r.right)) return failWith(u, c, 'invalid_value', `must match ${pattern}`);
    return r;
  });
};

/** What a definition's codec is made from. */
export interface ValueRule {
  readonly type: FieldType;
  readonly options: readonly { readonly value: string }[];
  readonly pattern: string | null;
}

/** The codec of a field's values. */
export const customValueCodec = (rule: ValueRule): Decoded<CustomValue> => {
  switch (rule.type) {
    case 'text':
      return textCodec(limits.text);
    case 'textarea':
      return textCodec(limits.textarea);
    case 'integer':
      return integerCodec;
    case 'decimal':
      return decimalCodec;
    case 'date':
      return dateCodec;
    case 'checkbox':
      return checkboxCodec;
    case 'dropdown':
      return dropdownCodec(rule.options.map((o) => o.value));
    case 'multiselect':
      return multiselectCodec(rule.options.map((o) => o.value));
    case 'regexp':
      return regexpCodec(rule.pattern ?? '');
  }
};

/** A ticket body's `custom_fields`: a JSON object by key (each value decoded by the use case against its field), or null. */
export const customFieldsObject = shaped(
  new t.Type<Readonly<Record<string, unknown>> | null, Readonly<Record<string, unknown>> | null, unknown>(
    'object of custom field values by key',
    (u): u is Readonly<Record<string, unknown>> | null => u === null || (typeof u === 'object' && !Array.isArray(u)),
    (u, c) => {
      if (u === null) return t.success(null);
      if (typeof u !== 'object' || Array.isArray(u))
        return failWith(u, c, 'invalid_type', 'must be an object of values by field key (GET /v1/ticket_fields)');
      const n = Object.keys(u).length;
      if (n > limits.definitions)
        return failWith(u, c, 'invalid_length', `must hold at most ${limits.definitions} keys (got ${n})`);
      return t.success(u as Readonly<Record<string, unknown>>);
    },
    t.identity,
  ),
  { kind: 'customValues', maxKeys: limits.definitions },
);
