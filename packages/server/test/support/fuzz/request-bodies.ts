import fc from 'fast-check';
import type { Operation } from './operations.js';
import { validValue, type Json, type SchemaResolver } from './schema-values.js';
import { anyValue, hostileValue, invalidValue } from './schema-invalid-values.js';
import type { Entries, Ref, UrlText } from './wire.js';
import { encoded, text, weighted, type Body, type BodyPlan } from './request-parts.js';
import { queryText } from './request-urls.js';

// The body of a generated request (requests.ts): valid by its schema, mutated, not JSON at all,
// in another encoding or media type, form-encoded, gzipped.

export const unknownKeys = fc.constantFrom(
  '$gt',
  '$where',
  '__proto__',
  'constructor',
  'prototype',
  'id',
  'url',
  'created_at',
  'updated_at',
  'customer_name',
  'customer',
  'state',
  'secret',
  'role',
  'colour',
  '',
  'password_hash',
  'allowed_transitions',
);

export const propertiesOf = (schema: Json, resolve: SchemaResolver): [string, Json][] => {
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf.map(resolve) : [schema];
  return branches.flatMap((b) => Object.entries((b.properties ?? {}) as Record<string, Json>));
};

/** Changes to a valid body: a field refused, a required one left out, an unknown one added, a key given twice. */
export const mutated = (schema: Json, resolve: SchemaResolver): fc.Arbitrary<unknown> => {
  const properties = propertiesOf(schema, resolve);
  const base = validValue(schema, resolve);
  const entriesOf = (v: unknown): [string, unknown][] =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.entries(v) : [];
  const change: fc.Arbitrary<(entries: [string, unknown][]) => [string, unknown][]> = fc.oneof(
    ...(properties.length === 0
      ? []
      : [
          fc
            .tuple(fc.constantFrom(...properties), fc.boolean())
            .chain(([[name, p], hostile]) =>
              (hostile ? hostileValue : invalidValue(p, resolve, name)).map((v) => (e: [string, unknown][]) => [
                ...e.filter(([k]) => k !== name),
                [name, v] as [string, unknown],
              ]),
            ),
          fc
            .constantFrom(...properties.map(([name]) => name))
            .map((name) => (e: [string, unknown][]) => e.filter(([k]) => k !== name)),
          fc
            .constantFrom(...properties)
            .chain(([name, p]) =>
              anyValue(p, resolve, name).map((v) => (e: [string, unknown][]) => [...e, [name, v] as [string, unknown]]),
            ),
        ]),
    fc
      .tuple(unknownKeys, fc.oneof(fc.string(), fc.integer(), hostileValue))
      .map(([k, v]) => (e: [string, unknown][]) => [...e, [k, v] as [string, unknown]]),
  );
  return fc
    .tuple(base, fc.array(change, { minLength: 1, maxLength: 3 }))
    .map(([v, changes]): Entries => ({ entries: changes.reduce((e, c) => c(e), entriesOf(v)) }));
};

export const notJson = fc.constantFrom(
  '{',
  '{"subject":}',
  "{'a':1}",
  '{"a":1,}',
  'nul',
  '',
  ' ',
  '\u0000',
  '{"a":"\\uZZZZ"}',
  '[1,2',
  '{"a" 1}',
  'NaN',
  '{"a":01}',
  '{"a":1}{"b":2}',
  '\uFEFF\uFEFF{}',
  '{"a":"\u0007"}',
);

/** Bytes that are not UTF-8 JSON: invalid sequences inside a string, UTF-16, a lone surrogate in WTF-8. */
export const badBytes = fc.constantFrom(
  [...Buffer.from('{"subject":"'), 0xff, ...Buffer.from('"}')],
  [...Buffer.from('{"body":"'), 0xc3, 0x28, ...Buffer.from('"}')],
  [...Buffer.from('{"name":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')],
  [...Buffer.from('{"a":1}', 'utf16le')],
  [0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d],
  [0x1f, 0x8b, 0x08, 0x00, 0x01],
);

export const formPairs = (
  schema: Json,
  resolve: SchemaResolver,
): fc.Arbitrary<readonly (readonly [UrlText, UrlText | Ref])[]> => {
  const fromObject = fc.oneof(validValue(schema, resolve), mutated(schema, resolve)).map((v) => {
    const entries =
      typeof v === 'object' && v !== null && 'entries' in v ? (v as Entries).entries : Object.entries(v as object);
    return entries.map(([k, x]): readonly [UrlText, UrlText | Ref] => [
      text(k),
      typeof x === 'object' && x !== null && 'ref' in x ? (x as Ref) : queryText(x),
    ]);
  });
  const odd = fc.constantFrom<readonly (readonly [UrlText, UrlText])[]>(
    [
      [text('grant_type'), text('password')],
      [text('username'), encoded('%FF')],
      [text('password'), encoded('%ED%A0%80')],
    ],
    [
      [text('grant_type'), text('password')],
      [text('grant_type'), text('refresh_token')],
    ],
    [
      [encoded('username[$gt]'), text('')],
      [text('grant_type'), text('password')],
      [text('password'), text('x')],
    ],
    [
      [encoded('a.b'), text('c')],
      [encoded('__proto__[x]'), text('1')],
      [encoded('a[99999]'), text('x')],
    ],
    [[encoded('a[b][c][d][e][f][g]'), text('1')]],
    [
      [encoded('%'), encoded('%')],
      [text(''), text('')],
    ],
  );
  return weighted<readonly (readonly [UrlText, UrlText | Ref])[]>([4, fromObject], [1, odd]);
};

export const contentTypes = (op: Operation): fc.Arbitrary<string | null> =>
  weighted<string | null>(
    [
      12,
      op.bodies.length === 0 ? fc.constant('application/json') : fc.constantFrom(...op.bodies.map((b) => b.mediaType)),
    ],
    [
      3,
      fc.constantFrom(
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'application/json;charset="UTF-8"',
        'APPLICATION/JSON',
        'text/plain',
        'application/merge-patch+json',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/*',
        'application/json; charset=utf-16',
      ),
    ],
    [1, fc.constant(null)],
  );

export const bodyPlan = (op: Operation, resolve: SchemaResolver): fc.Arbitrary<BodyPlan | null> => {
  const schema = op.bodies[0]?.schema ?? { type: 'object', properties: {} };
  const form = op.bodies.some((b) => b.mediaType === 'application/x-www-form-urlencoded');
  const body = weighted<Body>(
    [30, validValue(schema, resolve).map((value) => ({ kind: 'json' as const, value }))],
    [24, mutated(schema, resolve).map((value) => ({ kind: 'json' as const, value }))],
    [
      6,
      fc
        .oneof(hostileValue, fc.constantFrom<unknown>([], 'x', 1, null, true, [{}]))
        .map((value) => ({ kind: 'json' as const, value })),
    ],
    [form ? 16 : 3, formPairs(schema, resolve).map((pairs) => ({ kind: 'form' as const, pairs }))],
    [4, notJson.map((t) => ({ kind: 'text' as const, text: t }))],
    [3, badBytes.map((bytes) => ({ kind: 'bytes' as const, bytes }))],
    // Over 1 MiB only where a body is read: elsewhere the server answers without reading it and
    // closes, and the reset that follows can cost the client the answer (TCP's business).
    ...(op.bodies.length > 0 ? [[1, fc.constant({ kind: 'huge' as const })] as const] : []),
  );
  const planned = fc.record({
    body,
    contentType: contentTypes(op),
    gzip: weighted([9, fc.constant(false)], [1, fc.constant(true)]),
    bom: weighted([19, fc.constant(false)], [1, fc.constant(true)]),
  });
  const expected = op.bodies.length > 0;
  return expected
    ? weighted<BodyPlan | null>([12, planned], [1, fc.constant(null)])
    : weighted<BodyPlan | null>([12, fc.constant(null)], [1, planned]);
};
