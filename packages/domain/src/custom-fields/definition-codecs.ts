import * as t from 'io-ts';
import { booleanField, boundedString, failWith, oneOf } from '../codecs/field-codecs.js';
import { shaped } from '../codecs/value-shape.js';
import type { FieldErrorCode } from '../errors.js';
import { codePointLength } from '../text.js';
import { customFieldLimits as limits, fieldKeyPattern, fieldTypes } from './field-type.js';
import type { FieldOption } from './definition.js';

// The rule for each writable member of a custom field's definition (contract §10), as codecs
// whose failures carry a field-error code; which members a body has is the edge's.

const key = shaped(
  new t.Type<string, string, unknown>(
    'key of 1-64 characters [a-z][a-z0-9_]*',
    (u): u is string => typeof u === 'string' && u.length <= limits.key.max && fieldKeyPattern.test(u),
    (u, c) => {
      if (typeof u !== 'string') return failWith(u, c, 'invalid_type', 'must be a string');
      if (u.length < limits.key.min || u.length > limits.key.max)
        return failWith(u, c, 'invalid_length', `must be 1 to 64 characters long (got ${codePointLength(u)})`);
      if (!fieldKeyPattern.test(u))
        return failWith(u, c, 'invalid_value', 'must start with a lower-case letter and hold only a-z, 0-9 and _');
      return t.success(u);
    },
    t.identity,
  ),
  { kind: 'string', ...limits.key, nonBlank: false, pattern: fieldKeyPattern.source },
);

/** One failure at a context, for a codec that reports several. */
const errorAt = (value: unknown, context: t.Context, code: FieldErrorCode, message: string): t.ValidationError => ({
  value,
  context,
  message: `${code}|${message}`,
});

const optionValue = boundedString('option value of 1-64 characters', { ...limits.optionValue, nonBlank: true });
const optionTitle = boundedString('option title of 1-200 characters', { ...limits.optionTitle, nonBlank: true });

/** What `reservedValue` and not blank allow, as the document's pattern (no comma, not "none", not blank). */
const optionValuePattern = '^(?!none$)[^,]*[^,\\s][^,]*$';

/** `none` means "unset" in a query and a comma separates a query's values: neither can be an option. */
const reservedValue = (v: string): string | null =>
  v === 'none'
    ? '"none" is reserved (cf.<key>=none lists tickets without a value)'
    : v.includes(',')
      ? 'must not contain a comma (a comma separates the values of a query)'
      : null;

/** `[{value, title}]`: at most 500, refused by length before an item is read; a title left out is the value. */
const options = shaped(
  new t.Type<readonly FieldOption[], readonly FieldOption[], unknown>(
    'list of options {value, title}',
    (u): u is readonly FieldOption[] => Array.isArray(u),
    (u, c) => {
      if (!Array.isArray(u)) return failWith(u, c, 'invalid_type', 'must be an array of {value, title}');
      if (u.length > limits.options)
        return failWith(u, c, 'invalid_length', `must hold at most ${limits.options} options (got ${u.length})`);
      const errors: t.Errors = [];
      const out: FieldOption[] = [];
      (u as unknown[]).forEach((item, i) => {
        const at = t.appendContext(c, String(i), t.unknown, item);
        if (typeof item !== 'object' || item === null || Array.isArray(item)) {
          errors.push(errorAt(item, at, 'invalid_type', 'must be an object {value, title}'));
          return;
        }
        const o = item as Record<string, unknown>;
        for (const k of Object.keys(o))
          if (k !== 'value' && k !== 'title')
            errors.push(
              errorAt(o[k], t.appendContext(at, k, t.unknown, o[k]), 'unknown_field', 'is not a member of an option'),
            );
        const value = optionValue.validate(o.value, t.appendContext(at, 'value', optionValue, o.value));
        // Left out, the title is the value; null is refused like any other non-string (the
        // document says a string, and a client generated from it never sends null).
        const title =
          o.title === undefined
            ? t.success(undefined)
            : optionTitle.validate(o.title, t.appendContext(at, 'title', optionTitle, o.title));
        if (value._tag === 'Left') errors.push(...value.left);
        if (title._tag === 'Left') errors.push(...title.left);
        if (value._tag === 'Right') {
          const reserved = reservedValue(value.right);
          if (reserved !== null)
            errors.push(
              errorAt(o.value, t.appendContext(at, 'value', optionValue, o.value), 'invalid_value', reserved),
            );
          else if (title._tag === 'Right') out.push({ value: value.right, title: title.right ?? value.right });
        }
      });
      return errors.length > 0 ? t.failures(errors) : t.success(out);
    },
    t.identity,
  ),
  {
    kind: 'options',
    maxItems: limits.options,
    value: { kind: 'string', ...limits.optionValue, nonBlank: true, pattern: optionValuePattern },
    title: optionTitle.shape,
  },
);

const pattern = boundedString('RE2 pattern of 1-1000 characters', limits.pattern);

const position = shaped(
  new t.Type<number, number, unknown>(
    'integer 0-1000000',
    (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 && u <= limits.position,
    (u, c) =>
      typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 && u <= limits.position
        ? t.success(u)
        : failWith(u, c, 'invalid_type', 'must be an integer from 0 to 1000000'),
    t.identity,
  ),
  { kind: 'integer', min: 0, max: limits.position },
);

export const ticketFieldValues = {
  key,
  title: boundedString('string of 1-200 characters', { ...limits.title, nonBlank: true }),
  type: oneOf('field type', fieldTypes),
  description: boundedString('string of 0-1000 characters', limits.description),
  options,
  pattern,
  required: booleanField,
  customerVisible: booleanField,
  customerEditable: booleanField,
  position,
};
