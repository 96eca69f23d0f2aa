import fc from 'fast-check';
import { pathFixture, type Parameter } from './operations.js';
import { boundaryValue, fixtureOf, validValue, type SchemaResolver } from './schema-values.js';
import { invalidValue } from './schema-invalid-values.js';
import type { Raw, UrlText } from './wire.js';
import { encoded, text, weighted, type Segment } from './request-parts.js';

// The URL of a generated request (requests.ts): path segments that are no id, and the query's
// parameters, documented or not, in every form.

/** Bytes on the wire a URL part may carry: invalid UTF-8, a lone surrogate in WTF-8, NUL, a slash, a bare %. */
export const badEscapes = fc.constantFrom(
  encoded('%FF'),
  encoded('%C3%28'),
  encoded('%ED%A0%80'),
  encoded('%00'),
  encoded('%2F'),
  encoded('%'),
  encoded('%zz'),
  encoded('%E2%80%AE'),
);

export const notAnId: fc.Arbitrary<UrlText> = fc.oneof(
  fc
    .constantFrom(
      '0',
      '-1',
      'abc',
      '1.5',
      '01',
      '1e3',
      '+1',
      ' 1',
      '9007199254740992',
      '99999999999999999999999',
      'me',
      'recently_closed',
      '..',
      '\uD800',
      'NaN',
      'Infinity',
      '0x10',
    )
    .map(text),
  badEscapes,
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map(text),
);

export const segment = (p: Parameter, resolve: SchemaResolver): fc.Arbitrary<Segment> => {
  const kind = pathFixture(p.name);
  const asText = (v: unknown): Segment => text(String(v));
  const valid: fc.Arbitrary<Segment> =
    kind === null
      ? fc.oneof(fc.constant(String(p.example)).map(text), validValue(p.schema, resolve).map(asText))
      : fc.nat({ max: 7 }).map((pick) => ({ fixture: { ref: kind, pick } }));
  return weighted<Segment>(
    [12, valid],
    [1, validValue(p.schema, resolve).map(asText)],
    [1, boundaryValue(p.schema, resolve).map(asText)],
    [3, notAnId],
  );
};

export const asText = (v: unknown): string => {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null && 'raw' in v) return (v as Raw).raw;
  return v === undefined ? 'undefined' : JSON.stringify(v);
};

/**
 * A value as a query string carries it: lists comma-joined, objects as their JSON, raw text
 * as is; at most 3,000 characters, so the request stays near the 16 KiB header limit
 * (errors.test.ts has the 431): a request line of 300 KB is cut by the server's 431
 * and close before the client has written it, which is TCP's business, not the service's.
 */
export const queryText = (v: unknown): UrlText =>
  text((Array.isArray(v) ? v.map(asText).join(',') : asText(v)).slice(0, 3_000));

export const queryValue = (p: Parameter, resolve: SchemaResolver): fc.Arbitrary<UrlText> => {
  // A valid wait holds the request up to 30 s when nothing is newer: the long poll has its
  // own tests; here it stays 0, and its refused values are still sent.
  // A query carries text, not fixtures: the queue filters' ids are plain integers, found or not.
  const name = fixtureOf(p.name) === null ? p.name : undefined;
  const valid = p.name === 'wait' ? fc.constant(0) : validValue(p.schema, resolve, name);
  return weighted<UrlText>(
    [6, valid.map(queryText)],
    [2, boundaryValue(p.schema, resolve, name).map(queryText)],
    [3, invalidValue(p.schema, resolve, name).map(queryText)],
    [1, badEscapes],
    [1, fc.constantFrom('', 'x'.repeat(5_000), ',', ',,', 'open,', '-', '+id', ' ').map(text)],
  );
};

export type QueryPair = readonly [string, UrlText];

/** One documented query parameter: left out, given once, repeated, or in qs's bracket forms. */
export const queryParameter = (p: Parameter, resolve: SchemaResolver): fc.Arbitrary<readonly QueryPair[]> => {
  const value = queryValue(p, resolve);
  return weighted<readonly QueryPair[]>(
    [8, fc.constant([])],
    [6, value.map((v) => [[p.name, v]])],
    [
      1,
      fc.tuple(value, value).map(([a, b]) => [
        [p.name, a],
        [p.name, b],
      ]),
    ],
    [
      1,
      fc
        .tuple(fc.constantFrom('[$gt]', '[]', '[0]', '[__proto__]', '.x', '[a][b][c][d][e][f][g]'), value)
        .map(([k, v]) => [[`${p.name}${k}`, v]]),
    ],
  );
};

export const unknownParameters: fc.Arbitrary<readonly QueryPair[]> = weighted<readonly QueryPair[]>(
  [10, fc.constant([])],
  [
    1,
    fc.constantFrom<readonly QueryPair[]>(
      [['foo', text('bar')]],
      [['$where', text('1')]],
      [['__proto__[x]', text('1')]],
      [['constructor[prototype][x]', text('1')]],
      [['a[99999]', text('x')]],
    ),
  ],
);
