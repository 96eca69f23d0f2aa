import { compareText } from '../text.js';

// A custom field's value as a ticket keeps it: a string (text, textarea, regexp, dropdown,
// date as YYYY-MM-DD), a number (integer, decimal), a boolean (checkbox) or a list of option
// values (multiselect). A ticket keeps its values by the definition's id, not its key, so a
// field deleted and defined again under the same key starts empty. Unset is absent.

export type CustomScalar = string | number | boolean;
export type CustomValue = CustomScalar | readonly string[];

/** A ticket's values by field id (decimal); only set values are present. */
export type CustomValues = Readonly<Record<string, CustomValue>>;

export const noCustomValues: CustomValues = Object.freeze({});

/** The value a ticket holds for a field, or undefined. */
export const customValueOf = (values: CustomValues | undefined, fieldId: number): CustomValue | undefined =>
  values === undefined ? undefined : values[fieldId];

/** Orders two values of one field: numbers by value, text by code point (as MongoDB), false before true. */
export const compareCustomScalars = (a: CustomScalar, b: CustomScalar): number => {
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  throw new TypeError(`values of one field have one type: ${typeof a} and ${typeof b}`);
};

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x) => b.includes(x));

export const sameCustomValue = (a: CustomValue | undefined, b: CustomValue | undefined): boolean => {
  if (Array.isArray(a) && Array.isArray(b)) return sameList(a as readonly string[], b as readonly string[]);
  return a === b;
};

/** Whether two value sets hold the same values (a multiselect's order aside). */
export const sameCustomValues = (a: CustomValues, b: CustomValues): boolean => {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => sameCustomValue(a[k], b[k]));
};

/** A copy no caller shares with the store. */
export const copyCustomValues = (values: CustomValues): CustomValues => {
  const out: Record<string, CustomValue> = {};
  for (const [k, v] of Object.entries(values)) out[k] = Array.isArray(v) ? [...(v as readonly string[])] : v;
  return out;
};
