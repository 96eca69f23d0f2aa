import fc from 'fast-check';
import { pathFixture, type Operation, type Parameter } from './operations.js';
import {
  anyValue,
  boundaryValue,
  fixtureOf,
  hostileValue,
  invalidValue,
  validValue,
  type Json,
  type SchemaResolver,
} from './schema-values.js';
import type { Entries, Raw, Ref, UrlText } from './wire.js';

// A request for one operation of the document, as fast-check generates it (and shrinks it):
// who sends it and how the token travels, the method (now and then one the path does not
// offer), each path segment (a fixture, or a text that is no id), the query (each
// documented parameter left out, valid, on a bound, refused, repeated or bracketed like an
// object, plus unknown ones), the headers (the documented ones, Accept, method override,
// a repeated Idempotency-Key) and the body (valid by its schema, mutated, not JSON at all,
// in another encoding or media type, gzipped, over the size limit).

/** personal: one of the world's admin's personal access tokens, each with its own random scopes. */
export type Role = 'admin' | 'agent' | 'customer' | 'personal' | 'none' | 'stranger';
export type TokenVia = 'bearer' | 'basic' | 'query';

/** A path segment: literal text of the template, a fixture's id, or generated text. */
export type Segment = { readonly literal: string } | { readonly fixture: Ref } | UrlText;

/** A header value; `current ETag` is read from the target just before the request. */
export type HeaderValue = string | readonly string[] | { readonly currentEtag: true };

export type Body =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'bytes'; readonly bytes: readonly number[] }
  | { readonly kind: 'form'; readonly pairs: readonly (readonly [UrlText, UrlText | Ref])[] }
  | { readonly kind: 'huge' };

export interface BodyPlan {
  readonly body: Body;
  readonly contentType: string | null;
  readonly gzip: boolean;
  readonly bom: boolean;
}

export interface FuzzRequest {
  readonly role: Role;
  /** Which personal token (role personal), modulo how many the world has. */
  readonly personal: number;
  readonly via: TokenVia;
  readonly method: string;
  readonly segments: readonly Segment[];
  readonly suffix: string;
  readonly query: readonly (readonly [string, UrlText])[];
  readonly headers: readonly (readonly [string, HeaderValue])[];
  readonly body: BodyPlan | null;
}

const text = (s: string): UrlText => ({ text: s });
const encoded = (s: string): UrlText => ({ encoded: s });

const weighted = <T>(...pairs: readonly (readonly [number, fc.Arbitrary<T>])[]): fc.Arbitrary<T> =>
  fc.oneof(...pairs.map(([weight, arbitrary]) => ({ weight, arbitrary })));

/** Bytes on the wire a URL part may carry: invalid UTF-8, a lone surrogate in WTF-8, NUL, a slash, a bare %. */
const badEscapes = fc.constantFrom(
  encoded('%FF'),
  encoded('%C3%28'),
  encoded('%ED%A0%80'),
  encoded('%00'),
  encoded('%2F'),
  encoded('%'),
  encoded('%zz'),
  encoded('%E2%80%AE'),
);

const notAnId: fc.Arbitrary<UrlText> = fc.oneof(
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

const segment = (p: Parameter, resolve: SchemaResolver): fc.Arbitrary<Segment> => {
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

const asText = (v: unknown): string => {
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
const queryText = (v: unknown): UrlText =>
  text((Array.isArray(v) ? v.map(asText).join(',') : asText(v)).slice(0, 3_000));

const queryValue = (p: Parameter, resolve: SchemaResolver): fc.Arbitrary<UrlText> => {
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

type QueryPair = readonly [string, UrlText];

/** One documented query parameter: left out, given once, repeated, or in qs's bracket forms. */
const queryParameter = (p: Parameter, resolve: SchemaResolver): fc.Arbitrary<readonly QueryPair[]> => {
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

const unknownParameters: fc.Arbitrary<readonly QueryPair[]> = weighted<readonly QueryPair[]>(
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

const latin1 = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c < 0x7f || c >= 0xa0)
    .map((c) => String.fromCharCode(c)),
  maxLength: 40,
});

const httpDates = fc.date({ min: new Date(0), max: new Date(Date.UTC(2100, 0)), noInvalidDate: true }).chain((d) =>
  fc.constantFrom(
    d.toUTCString(),
    // RFC 850 and asctime, the two obsolete forms a server must still read.
    d.toUTCString().replace(/^(\w+), (\d+) (\w+) (\d{2})(\d{2})/, '$1day, $2-$3-$5'),
    d.toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1 $3 $2 $5 $4'),
  ),
);

const headerParameter = (
  p: Parameter,
  resolve: SchemaResolver,
): fc.Arbitrary<readonly (readonly [string, HeaderValue])[]> => {
  let valid: fc.Arbitrary<HeaderValue>;
  switch (p.name) {
    case 'If-Match':
    case 'If-None-Match':
      valid = weighted<HeaderValue>(
        [3, fc.constant({ currentEtag: true })],
        [1, fc.constantFrom('*', '"x"', 'W/"x"', '"a", "b"', '"unterminated', 'W/')],
      );
      break;
    case 'If-Modified-Since':
      valid = weighted<HeaderValue>(
        [3, httpDates],
        [1, fc.constantFrom('yesterday', 'Mon, 32 Jan 2026 00:00:00 GMT', '0', 'Thu, 01 Jan 1970 00:00:00 GMT')],
      );
      break;
    case 'Idempotency-Key':
      valid = weighted<HeaderValue>(
        [4, fc.stringMatching(/^[!-~]{1,40}$/)],
        [1, fc.constantFrom('k'.repeat(255), 'k'.repeat(256), '', ' ', 'a b', 'clé')],
        [1, fc.tuple(fc.stringMatching(/^[!-~]{1,8}$/), fc.stringMatching(/^[!-~]{1,8}$/)).map(([a, b]) => [a, b])],
      );
      break;
    case 'X-Request-Id':
      // Any string a header can carry: the server uses one of 1-128 [A-Za-z0-9._-] and replaces any other.
      valid = weighted<HeaderValue>(
        [3, fc.stringMatching(/^[A-Za-z0-9._-]{1,128}$/)],
        [1, fc.stringMatching(/^[!-~]{0,200}$/)],
      );
      break;
    default:
      valid = validValue(p.schema, resolve).map(String);
  }
  return weighted<readonly (readonly [string, HeaderValue])[]>(
    [6, fc.constant([])],
    [4, valid.map((v) => [[p.name, v]])],
    [1, latin1.map((v) => [[p.name, v]])],
  );
};

const extraHeaders = (method: string): fc.Arbitrary<readonly (readonly [string, HeaderValue])[]> =>
  fc
    .tuple(
      weighted<readonly [string, HeaderValue][]>(
        [8, fc.constant([])],
        [
          2,
          fc
            .constantFrom(
              'application/json',
              '*/*',
              'application/xml',
              'text/html',
              'application/json;q=0',
              'application/javascript',
              '',
            )
            .map((v) => [['Accept', v]]),
        ],
      ),
      weighted<readonly [string, HeaderValue][]>(
        [6, fc.constant([])],
        [2, fc.constantFrom('gzip', 'identity', 'br', '*;q=0', 'gzip;q=0').map((v) => [['Accept-Encoding', v]])],
      ),
      method === 'POST'
        ? weighted<readonly [string, HeaderValue][]>(
            [8, fc.constant([])],
            [
              1,
              fc
                .constantFrom('PUT', 'PATCH', 'DELETE', 'GET', 'POST', 'FOO', 'put')
                .map((v) => [['X-HTTP-Method-Override', v]]),
            ],
          )
        : fc.constant([]),
    )
    .map(([a, b, c]) => [...a, ...b, ...c]);

const unknownKeys = fc.constantFrom(
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

const propertiesOf = (schema: Json, resolve: SchemaResolver): [string, Json][] => {
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf.map(resolve) : [schema];
  return branches.flatMap((b) => Object.entries((b.properties ?? {}) as Record<string, Json>));
};

/** Changes to a valid body: a field refused, a required one left out, an unknown one added, a key given twice. */
const mutated = (schema: Json, resolve: SchemaResolver): fc.Arbitrary<unknown> => {
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

const notJson = fc.constantFrom(
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
const badBytes = fc.constantFrom(
  [...Buffer.from('{"subject":"'), 0xff, ...Buffer.from('"}')],
  [...Buffer.from('{"body":"'), 0xc3, 0x28, ...Buffer.from('"}')],
  [...Buffer.from('{"name":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')],
  [...Buffer.from('{"a":1}', 'utf16le')],
  [0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d],
  [0x1f, 0x8b, 0x08, 0x00, 0x01],
);

const formPairs = (
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

const contentTypes = (op: Operation): fc.Arbitrary<string | null> =>
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

const bodyPlan = (op: Operation, resolve: SchemaResolver): fc.Arbitrary<BodyPlan | null> => {
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

const otherMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const methodOf = (op: Operation): fc.Arbitrary<string> =>
  weighted(
    [60, fc.constant(op.method)],
    [2, fc.constant(op.method === 'GET' ? 'HEAD' : 'OPTIONS')],
    [1, fc.constant('OPTIONS')],
    [2, fc.constantFrom(...otherMethods.filter((m) => m !== op.method))],
    // CONNECT has its own test (errors.test.ts): Node's client never hands its answer over as a response.
    [1, fc.constantFrom('BREW', 'TRACE', 'PROPFIND', 'M-SEARCH')],
  );

/** Requests for one operation of the document. */
export const requestsFor = (op: Operation, resolve: SchemaResolver): fc.Arbitrary<FuzzRequest> => {
  const segments = fc.tuple(
    ...op.template
      .split('/')
      .slice(1)
      .map((part): fc.Arbitrary<Segment> => {
        const m = /^\{(.+)\}$/.exec(part);
        const p = m === null ? undefined : op.parameters.find((x) => x.in === 'path' && x.name === m[1]);
        // Now and then a literal in another case: /V1/Tickets names no resource (paths are case-sensitive).
        const literal = weighted<Segment>(
          [30, fc.constant({ literal: part })],
          [
            1,
            fc.constantFrom(
              { literal: part.toUpperCase() },
              { literal: `${part.charAt(0).toUpperCase()}${part.slice(1)}` },
            ),
          ],
        );
        return p === undefined ? literal : segment(p, resolve);
      }),
  );
  const query = fc
    .tuple(
      ...op.parameters
        .filter((p) => p.in === 'query' && p.name !== 'access_token')
        .map((p) => queryParameter(p, resolve)),
      unknownParameters,
    )
    .map((parts) => parts.flat());
  const headers = fc
    .tuple(
      ...op.parameters.filter((p) => p.in === 'header').map((p) => headerParameter(p, resolve)),
      extraHeaders(op.method),
    )
    .map((parts) => parts.flat());
  return fc.record({
    role: weighted<Role>(
      [3, fc.constant('admin')],
      [2, fc.constant('agent')],
      [3, fc.constant('customer')],
      [2, fc.constant('personal')],
      [1, fc.constant('none')],
      [1, fc.constant('stranger')],
    ),
    personal: fc.nat(1_000),
    via: weighted<TokenVia>([6, fc.constant('bearer')], [2, fc.constant('basic')], [2, fc.constant('query')]),
    method: methodOf(op),
    segments,
    suffix: weighted([20, fc.constant('')], [1, fc.constantFrom('.json', '/', '.xml', '.JSON', '//', '%2Ejson')]),
    query,
    headers,
    body: bodyPlan(op, resolve),
  });
};
