import fc from 'fast-check';
import type { Raw } from './wire.js';
import { boundaryValue, ofLength, raw, validValue, type SchemaResolver } from './schema-values.js';

// The refused side of schema-values.ts: values that trip careless code, values one past each
// bound or of the wrong JSON type, and the mix of all three kinds a request is made of.

const nested = (depth: number, open: string, close: string): Raw => raw(`${open.repeat(depth)}${close.repeat(depth)}`);

/** Values no schema of this document accepts where a scalar is expected, and that trip careless code. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    { $gt: '' },
    { $ne: null },
    { $where: 'sleep(1000)' },
    { $regex: '.*' },
    ['$gt'],
    '\uD800',
    'a\uDFFFb',
    '\uDBFF\uDBFF',
    '\u0000',
    '\u202E\uFEFF',
    '𝕏'.repeat(3),
    -0,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 63),
    1.5,
    1e308,
    Number.MIN_VALUE,
    'NaN',
    '1e3',
    ' 1',
    '0x10',
    '',
    '   ',
  ),
  fc.constantFrom(
    raw('1e400'),
    raw('-1e400'),
    raw('123456789012345678901234567890'),
    raw('0.0000000000000000000000001'),
    raw('1E+2'),
    raw('-0.0'),
  ),
  fc.constantFrom(5_000, 100_000).map((d) => nested(d, '[', ']')),
  fc.constantFrom(5_000, 50_000).map((d) => raw(`${'{"a":'.repeat(d)}1${'}'.repeat(d)}`)),
);

/** Values the schema refuses: one past each bound, wrong JSON types, hostile values. */
export const invalidValue = (schema: unknown, resolve: SchemaResolver, name?: string): fc.Arbitrary<unknown> => {
  const s = resolve(schema);
  const valuesOf = Array.isArray(s.oneOf) ? resolve((s.oneOf as unknown[]).find((b) => resolve(b).type !== 'null')) : s;
  const wrongType = fc.constantFrom<unknown>(null, true, 0, -1, 'x', [], {}, [1, 2], { id: 1 });
  const pastBounds: fc.Arbitrary<unknown>[] = [];
  if (Array.isArray(valuesOf.enum))
    pastBounds.push(
      fc.constantFrom('not-one-of-them', String(valuesOf.enum[0]).toUpperCase(), ` ${String(valuesOf.enum[0])}`),
    );
  if (typeof valuesOf.maxLength === 'number') pastBounds.push(ofLength(valuesOf.maxLength + 1));
  if (typeof valuesOf.minLength === 'number' && valuesOf.minLength > 0)
    pastBounds.push(ofLength(valuesOf.minLength - 1));
  if (typeof valuesOf.minimum === 'number') pastBounds.push(fc.constant(valuesOf.minimum - 1));
  if (typeof valuesOf.maximum === 'number')
    pastBounds.push(fc.constant(valuesOf.maximum + 1), fc.constant(valuesOf.maximum * 4));
  if (typeof valuesOf.maxItems === 'number') {
    const n = valuesOf.maxItems + 1;
    pastBounds.push(
      fc.constant(Array.from({ length: n }, (_, i) => (resolve(valuesOf.items).type === 'integer' ? i + 1 : `t${i}`))),
    );
  }
  if (valuesOf.type === 'array') {
    // A list whose items are wrong, or repeated.
    pastBounds.push(fc.array(fc.oneof(wrongType, hostileValue), { minLength: 1, maxLength: 3 }));
    pastBounds.push(validValue(valuesOf.items ?? {}, resolve, name).map((v) => [v, v]));
  }
  if (valuesOf.format === 'email')
    pastBounds.push(fc.constantFrom('not an e-mail', 'a@', '@b.c', 'a@b@c.d', 'ADA@EXAMPLE.COM '));
  if (valuesOf.format === 'date-time')
    pastBounds.push(
      fc.constantFrom(
        '2026-13-01T00:00:00Z',
        '2026-02-30T08:00:00Z',
        '2026-11-25',
        '2026-11-25T08:00:00',
        'yesterday',
        '2026-11-25T24:00:00Z',
        '1764057600',
      ),
    );
  if (valuesOf.format === 'uri')
    pastBounds.push(
      fc.constantFrom(
        'ftp://example.com/',
        'https://user:pw@example.com/',
        'https://[::1]/x',
        'https://169.254.169.254/latest',
        'http://localhost/',
        '//x',
        'https://',
      ),
    );
  return fc.oneof(wrongType, hostileValue, ...pastBounds);
};

/** A value for a schema: mostly valid, sometimes on a bound, sometimes refused. */
export const anyValue = (schema: unknown, resolve: SchemaResolver, name?: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 6, arbitrary: validValue(schema, resolve, name) },
    { weight: 2, arbitrary: boundaryValue(schema, resolve, name) },
    { weight: 2, arbitrary: invalidValue(schema, resolve, name) },
  );
