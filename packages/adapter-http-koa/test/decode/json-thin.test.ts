import { validationFailed, type DomainError } from '@support/domain';
import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { scanJson } from '../../src/conventions/json-scan.js';
import { LargeJsonBody, maxListItems } from '../../src/conventions/json-thin.js';
import { thinAbove } from '../../src/conventions/request-body.js';
import { TicketCreateBody, TicketPatchBody } from '../../src/decode/bodies.js';
import { decodeBody } from '../../src/decode/object-codec.js';
import { bodyOperations } from '../support/worst-bodies.js';

// The scan that reads every JSON request body first (json-scan.ts) and the thinned reading of
// a large one (json-thin.ts) must change nothing but the cost: the scan accepts exactly what
// JSON.parse accepts (and refuses repeated names, `__proto__` and deep nesting), and a body
// read thinned decodes, for every body codec, to what it decodes to whole.

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Every value JSON.parse builds, containers included. */
const countValues = (v: unknown): number =>
  Array.isArray(v)
    ? 1 + v.reduce((n: number, x) => n + countValues(x), 0)
    : typeof v === 'object' && v !== null
      ? 1 + Object.values(v).reduce((n: number, x) => n + countValues(x), 0)
      : 1;

/** JSON texts: valid ones (compact or indented) and the same with one character changed, added or removed. */
const texts = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.jsonValue().map((v) => JSON.stringify(v, null, 2)),
  fc
    .tuple(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.nat(),
      fc.constantFrom('', '"', '\\', ',', ':', '{', '}', '[', ']', '0', '-', '.', 'e', 't', '\u0001', ' ', 'x', 'u'),
      fc.boolean(),
    )
    .map(([text, at, c, replace]) => {
      const k = text.length === 0 ? 0 : at % text.length;
      return text.slice(0, k) + c + text.slice(replace ? k + 1 : k);
    }),
  fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '0', '1', '-', '.', 'e', ' ', '\\', 'n', 'u') }),
);

describe('JSON scan (json-scan.ts): what JSON.parse accepts, nothing else (property)', () => {
  it('refuses every text JSON.parse refuses; counts the values of the others', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const scan = scanJson(text, 64);
        if (!parses(text)) {
          // A syntax error, or what the scan met before it (a repeated name, __proto__, depth): 400 alike.
          expect(scan.ok, text).to.equal(false);
          return;
        }
        if (!scan.ok) {
          // Valid JSON refused only for what the scan is there to refuse.
          expect(scan.kind, text).to.be.oneOf(['duplicate', 'forbidden', 'deep']);
          return;
        }
        expect(scan.values, text).to.equal(countValues(JSON.parse(text)));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds a name given twice in one object, however escaped, and only then', () => {
    const name = fc.tuple(fc.stringMatching(/^[ab\u00e9/~]{0,2}$/), fc.boolean());
    const escapedAll = (s: string): string =>
      Array.from({ length: s.length }, (_, k) => `\\u${s.charCodeAt(k).toString(16).padStart(4, '0')}`).join('');
    fc.assert(
      fc.property(fc.array(name, { maxLength: 12 }), fc.boolean(), (names, nested) => {
        const members = names.map(([n, esc]) => `"${esc ? escapedAll(n) : n}":0`).join(',');
        const text = nested ? `[1,{"x":{${members}}}]` : `{${members}}`;
        const plain = names.map(([n]) => n);
        const first = plain.findIndex((n, i) => plain.indexOf(n) !== i);
        const scan = scanJson(text, 64);
        if (first < 0) expect(scan.ok, text).to.equal(true);
        else
          expect(scan, text).to.deep.equal({
            ok: false,
            kind: 'duplicate',
            key: plain[first],
            pointer: nested ? '/1/x' : '',
          });
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses __proto__ (escaped too) and nesting past the limit', () => {
    expect(scanJson('{"a":{"__proto__":1}}', 64)).to.deep.equal({
      ok: false,
      kind: 'forbidden',
      key: '__proto__',
      pointer: '/a',
    });
    expect(scanJson('{"\\u005f_proto__":1}', 64)).to.deep.include({ kind: 'forbidden' });
    expect(scanJson(`${'['.repeat(64)}${']'.repeat(64)}`, 64)).to.deep.equal({ ok: true, values: 64 });
    expect(scanJson(`${'['.repeat(65)}${']'.repeat(65)}`, 64)).to.deep.equal({ ok: false, kind: 'deep' });
    expect(scanJson('['.repeat(100_000), 64)).to.deep.equal({ ok: false, kind: 'deep' });
  });
});

/** What a refusal answers: its listed errors and how many more; or the decoded value. */
const outcome = (decoded: ReturnType<typeof decodeBody>): unknown => {
  if (E.isRight(decoded)) return { value: decoded.right };
  const e: DomainError = validationFailed(decoded.left.errors, decoded.left.omitted);
  return e._tag === 'ValidationFailed' ? { errors: e.errors, omitted: e.omitted, given: decoded.left.given } : e;
};

describe('thinned reading (json-thin.ts): the same decoding as the whole value (property)', () => {
  for (const operation of bodyOperations) {
    it(`${operation.name}: any body decodes alike whole and thinned`, () => {
      const keys = [...operation.codec.keys];
      const small = fc.jsonValue({ maxDepth: 2 });
      const value = fc.oneof(
        small,
        fc.array(small, { maxLength: 8 }),
        fc
          .tuple(fc.integer({ min: maxListItems - 2, max: maxListItems + 40 }), small)
          .map(([n, x]): unknown[] => Array.from({ length: n }, () => x)),
      );
      const known = fc.tuple(fc.constantFrom(...keys, 'id', 'url', 'created_at'), value);
      const unknown = fc.tuple(
        fc.string({ maxLength: 6 }).map((k) => `x${k}`),
        fc.oneof(small, fc.constant(0)),
      );
      const body = fc.oneof(
        fc
          .tuple(fc.array(known, { maxLength: 6 }), fc.array(unknown, { maxLength: 250 }))
          .map(([a, b]) => Object.fromEntries([...b.slice(0, 120), ...a, ...b.slice(120)])),
        small,
      );
      fc.assert(
        fc.property(body, (b) => {
          const text = JSON.stringify(b);
          fc.pre(scanJson(text, 64).ok); // what the scan refuses (__proto__) is never decoded
          expect(outcome(decodeBody(operation.codec, new LargeJsonBody(text)))).to.deep.equal(
            outcome(decodeBody(operation.codec, JSON.parse(text))),
          );
        }),
        { numRuns: 60 },
      );
    });
  }
});

describe('thinned reading (json-thin.ts): an object-valued field (custom_fields, contract §10)', () => {
  const padding = Array.from({ length: thinAbove + 10 }, () => 0);
  const thinned = (body: unknown): ReturnType<typeof decodeBody> =>
    decodeBody(TicketPatchBody, new LargeJsonBody(JSON.stringify(body)));

  it('of a small object, the whole object, as JSON.parse builds it', () => {
    const custom = { tier: 'gold', seats: 5, areas: ['api', 'ui'], nested: { a: [1, { b: 2 }] }, none: null };
    for (const body of [
      { subject: 's', custom_fields: custom, padding },
      { padding, custom_fields: custom },
    ]) {
      const { value } = new LargeJsonBody(JSON.stringify(body)).thinned(TicketCreateBody.keys);
      expect((value as Record<string, unknown>).custom_fields).to.deep.equal(custom);
    }
  });

  it('of a large one, its members with their plain values, a long list as its length alone', () => {
    const decodedValue = thinned({
      custom_fields: { tier: 'gold', areas: Array.from({ length: 30_000 }, () => 'api') },
    });
    expect(E.isRight(decodedValue)).to.equal(true);
    const custom = (decodedValue as E.Right<{ customFields: Record<string, unknown> }>).right.customFields;
    expect(Object.keys(custom)).to.deep.equal(['tier', 'areas']);
    expect(custom.tier).to.equal('gold');
    expect(custom.areas).to.be.an('array').with.lengthOf(30_000);
  });

  it('of one with more members than it keeps, as many members: refused by that count', () => {
    const members = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`k${String(i)}`, i]));
    expect(outcome(thinned({ custom_fields: members }))).to.deep.equal(
      outcome(decodeBody(TicketPatchBody, { custom_fields: members })),
    );
  });
});
