// The nine types of a custom ticket field (contract §10) and their limits: the one home of
// what each type holds, which queries and sorts it takes, and whether its words are searched.

export const fieldTypes = [
  'text',
  'textarea',
  'integer',
  'decimal',
  'date',
  'checkbox',
  'dropdown',
  'multiselect',
  'regexp',
] as const;
export type FieldType = (typeof fieldTypes)[number];

export const customFieldLimits = {
  /** Definitions per service. */
  definitions: 100,
  key: { min: 1, max: 64 },
  title: { min: 1, max: 200 },
  description: { min: 0, max: 1000 },
  text: 255,
  textarea: 10000,
  regexp: 255,
  pattern: { min: 1, max: 1000 },
  options: 500,
  optionValue: { min: 1, max: 64 },
  optionTitle: { min: 1, max: 200 },
  multiselect: 50,
  decimals: 4,
  /** |decimal| stays below this: 11 digits before the point and 4 after are 15 significant digits, which a double keeps exactly. */
  decimalBound: 1e11,
  position: 1_000_000,
} as const;

/** `key`: a letter, then letters, digits or underscores (lower case). */
export const fieldKeyPattern = /^[a-z][a-z0-9_]*$/;

/** Types whose values are one of `options`. */
export const hasOptions = (type: FieldType): boolean => type === 'dropdown' || type === 'multiselect';

/** Types `sort=cf.<key>` accepts: every type but textarea and multiselect. */
export const isSortableType = (type: FieldType): boolean => type !== 'textarea' && type !== 'multiselect';

/** Types with `.gte` / `.lte` ranges. */
export const isRangeType = (type: FieldType): boolean => type === 'integer' || type === 'decimal' || type === 'date';

/** Types whose words `q` matches. */
export const isTextType = (type: FieldType): boolean => type === 'text' || type === 'textarea' || type === 'regexp';
