import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { FieldError, FieldErrorCode } from '../errors.js';
import { codePointLength } from '../text.js';
import { shaped, type ShapedCodec } from './value-shape.js';

// Field codecs whose failures carry a field-error code. io-ts keeps one message per
// failure; we store "code|human message" there and split it in `toFieldErrors`.
export const failWith = (u: unknown, c: t.Context, code: FieldErrorCode, message: string): t.Validation<never> =>
  t.failure(u, c, `${code}|${message}`);

/**
 * A UTF-16 surrogate without its partner. JSON may carry one (`"\ud800"`), but it is not
 * Unicode text: UTF-8 and BSON cannot hold it (MongoDB would store U+FFFD instead), so a
 * store could not give back what it was given.
 */
const loneSurrogate = /\p{Cs}/u;

const codes: readonly FieldErrorCode[] = [
  'required',
  'unknown_field',
  'read_only',
  'invalid_type',
  'invalid_length',
  'invalid_value',
  'not_unique',
  'invalid_transition',
  'unknown_reference',
  'not_permitted',
  'limit_reached',
];
const isCode = (s: string): s is FieldErrorCode => (codes as readonly string[]).includes(s);

/** io-ts errors as field errors: the field is the dotted path ("tags.3"), "" for the value itself. */
export const toFieldErrors = (errors: t.Errors): FieldError[] =>
  errors.map((e) => {
    const field = e.context
      .map((entry) => entry.key)
      .filter((k) => k !== '')
      .join('.');
    const raw = e.message ?? '';
    const sep = raw.indexOf('|');
    const code = sep > 0 ? raw.slice(0, sep) : '';
    if (isCode(code)) return { field, code, message: raw.slice(sep + 1) };
    const expected = e.context[e.context.length - 1]?.type.name ?? 'a valid value';
    return e.value === undefined
      ? { field, code: 'required', message: 'is required' }
      : { field, code: 'invalid_type', message: `must be ${expected}` };
  });

export interface BoundedStringOptions {
  readonly min: number;
  readonly max: number;
  /** Refuse strings made only of white space. */
  readonly nonBlank?: boolean;
}

export const boundedString = (
  name: string,
  { min, max, nonBlank = false }: BoundedStringOptions,
): ShapedCodec<string> =>
  shaped(
    new t.Type<string, string, unknown>(
      name,
      (u): u is string =>
        typeof u === 'string' && codePointLength(u) >= min && codePointLength(u) <= max && !loneSurrogate.test(u),
      (u, c) => {
        if (typeof u !== 'string') return failWith(u, c, 'invalid_type', 'must be a string');
        if (loneSurrogate.test(u))
          return failWith(u, c, 'invalid_value', 'must be Unicode text: it holds a UTF-16 surrogate without its pair');
        const n = codePointLength(u);
        if (n < min || n > max) {
          const bounds = min === 0 ? `at most ${max}` : `${min} to ${max}`;
          return failWith(u, c, 'invalid_length', `must be ${bounds} characters long (got ${n})`);
        }
        if (nonBlank && u.trim() === '') return failWith(u, c, 'invalid_value', 'must not be blank');
        return t.success(u);
      },
      t.identity,
    ),
    { kind: 'string', min, max, nonBlank },
  );

export const oneOf = <V extends string>(name: string, values: readonly V[]): ShapedCodec<V> =>
  shaped(
    new t.Type<V, V, unknown>(
      name,
      (u): u is V => typeof u === 'string' && (values as readonly string[]).includes(u),
      (u, c) => {
        if (typeof u === 'string' && (values as readonly string[]).includes(u)) return t.success(u as V);
        return failWith(
          u,
          c,
          typeof u === 'string' ? 'invalid_value' : 'invalid_type',
          `must be one of: ${values.join(', ')}`,
        );
      },
      t.identity,
    ),
    { kind: 'enum', values },
  );

export const booleanField: ShapedCodec<boolean> = shaped(
  new t.Type<boolean, boolean, unknown>(
    'boolean',
    (u): u is boolean => typeof u === 'boolean',
    (u, c) => (typeof u === 'boolean' ? t.success(u) : failWith(u, c, 'invalid_type', 'must be true or false')),
    t.identity,
  ),
  { kind: 'boolean' },
);

/** A reference to another resource by its id: a JSON integer >= 1, decoded into the branded id; `what` with its article (`a user`). */
export const reference = <A extends number>(brand: t.Type<A, number>, what: string): ShapedCodec<A, number> =>
  shaped(
    new t.Type<A, number, unknown>(
      brand.name,
      brand.is,
      (u, c) =>
        E.isRight(brand.validate(u, c))
          ? t.success(u as A)
          : failWith(u, c, 'invalid_type', `must be the integer id of ${what}`),
      brand.encode,
    ),
    { kind: 'reference', what },
  );

export const nullable = <A, O>(codec: ShapedCodec<A, O>): ShapedCodec<A | null, O | null> =>
  shaped(
    new t.Type<A | null, O | null, unknown>(
      `${codec.name} | null`,
      (u): u is A | null => u === null || codec.is(u),
      (u, c) => (u === null ? t.success(null) : codec.validate(u, c)),
      (a) => (a === null ? null : codec.encode(a)),
    ),
    { kind: 'nullable', value: codec.shape },
  );

/**
 * A list of distinct values (contract §11): a list longer than `maxItems` is refused by its
 * length before any item is read; then each item is decoded and repeats are dropped (the
 * first one kept), found with a set, so the cost is linear in the list's length. Items
 * decode to primitives (strings, numbers), which the set compares by value.
 */
export const distinctList = <A, O>(
  name: string,
  item: ShapedCodec<A, O>,
  maxItems: number,
): ShapedCodec<readonly A[], readonly O[]> =>
  shaped(
    new t.Type<readonly A[], readonly O[], unknown>(
      name,
      (u): u is readonly A[] => Array.isArray(u) && u.length <= maxItems && u.every((x) => item.is(x)),
      (u, c) => {
        if (!Array.isArray(u)) return failWith(u, c, 'invalid_type', `must be an array (${name})`);
        if (u.length > maxItems)
          return failWith(u, c, 'invalid_length', `must hold at most ${maxItems} values (got ${u.length})`);
        const errors: t.ValidationError[] = [];
        const seen = new Set<A>();
        const out: A[] = [];
        for (let i = 0; i < u.length; i++) {
          const x: unknown = u[i];
          const r = item.validate(x, t.appendContext(c, String(i), item, x));
          if (E.isLeft(r)) for (const e of r.left) errors.push(e);
          else if (!seen.has(r.right)) {
            seen.add(r.right);
            out.push(r.right);
          }
        }
        return errors.length > 0 ? t.failures(errors) : t.success(out);
      },
      (as) => as.map((a) => item.encode(a)),
    ),
    { kind: 'list', item: item.shape, maxItems, minItems: 0 },
  );
