import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import {
  checkboxCodec,
  compilePattern,
  customValueCodec,
  dateCodec,
  decimalCodec,
  decimalPlaces,
  dropdownCodec,
  integerCodec,
  isCalendarDate,
  multiselectCodec,
  regexpCodec,
  textCodec,
  toFieldErrors,
  type Decoded,
} from '../src/index.js';

// One codec per type of custom field (contract §10): each at its bounds and one past them
// (unit), and a property each: what it accepts it keeps as given (or unsets), what it refuses
// it names with a field-error code.

const codeOf = <A>(codec: Decoded<A>, u: unknown): string | null => {
  const r = codec.decode(u);
  return E.isRight(r) ? null : (toFieldErrors(r.left)[0]?.code ?? '?');
};
const value = <A>(codec: Decoded<A>, u: unknown): A | null => {
  const r = codec.decode(u);
  if (E.isLeft(r)) throw new Error(`refused ${JSON.stringify(u)}`);
  return r.right;
};

describe('custom field codecs (contract §10)', () => {
  describe('text and textarea', () => {
    it('hold at most 255 / 10000 characters (code points); an empty text or null unsets', () => {
      expect(value(textCodec(255), 'é'.repeat(255))).to.equal('é'.repeat(255));
      expect(codeOf(textCodec(255), 'x'.repeat(256))).to.equal('invalid_length');
      expect(value(textCodec(10000), 'x'.repeat(10000))).to.have.length(10000);
      expect(codeOf(textCodec(10000), 'x'.repeat(10001))).to.equal('invalid_length');
      expect(value(textCodec(255), '')).to.equal(null);
      expect(value(textCodec(255), null)).to.equal(null);
      expect(codeOf(textCodec(255), 5)).to.equal('invalid_type');
      expect(codeOf(textCodec(255), '\ud800')).to.equal('invalid_value');
    });
    it('property: any string within the bound is kept as it is', () => {
      fc.assert(
        fc.property(fc.string({ minLength: 1, maxLength: 255, unit: 'grapheme-composite' }), (s) => {
          const kept = value(textCodec(255 * 4), s);
          return kept === s;
        }),
      );
    });
  });

  describe('integer', () => {
    it('is a safe integer', () => {
      expect(value(integerCodec, Number.MAX_SAFE_INTEGER)).to.equal(Number.MAX_SAFE_INTEGER);
      expect(value(integerCodec, -Number.MAX_SAFE_INTEGER)).to.equal(-Number.MAX_SAFE_INTEGER);
      expect(codeOf(integerCodec, Number.MAX_SAFE_INTEGER + 1)).to.equal('invalid_value');
      expect(codeOf(integerCodec, 1.5)).to.equal('invalid_value');
      expect(codeOf(integerCodec, '1')).to.equal('invalid_type');
      expect(value(integerCodec, -0)).to.equal(0);
      expect(Object.is(value(integerCodec, -0), 0)).to.equal(true);
    });
    it('property: safe integers are kept, other numbers refused', () => {
      fc.assert(fc.property(fc.maxSafeInteger(), (n) => value(integerCodec, n) === (n === 0 ? 0 : n)));
      fc.assert(
        fc.property(fc.double({ noNaN: true }), (n) =>
          Number.isSafeInteger(n) ? true : codeOf(integerCodec, n) !== null,
        ),
      );
    });
  });

  describe('decimal', () => {
    it('has at most 4 decimals and is kept exactly', () => {
      expect(value(decimalCodec, 19.99)).to.equal(19.99);
      expect(value(decimalCodec, 0.0001)).to.equal(0.0001);
      expect(codeOf(decimalCodec, 0.00001)).to.equal('invalid_value');
      expect(codeOf(decimalCodec, 1.23456)).to.equal('invalid_value');
      expect(value(decimalCodec, 99999999999.9999)).to.equal(99999999999.9999);
      expect(codeOf(decimalCodec, 1e11)).to.equal('invalid_value');
      expect(codeOf(decimalCodec, '1.5')).to.equal('invalid_type');
      expect(decimalPlaces(1e-7)).to.equal(7);
      expect(decimalPlaces(1.5e-3)).to.equal(4);
      expect(decimalPlaces(120)).to.equal(0);
    });
    it('property: a decimal of at most 4 places and 15 digits reads back as its own text', () => {
      fc.assert(
        fc.property(
          fc
            .integer({ min: 0, max: 4 })
            .chain((places) =>
              fc.tuple(
                fc.constant(places),
                fc.integer({ min: -(10 ** (11 + places)) + 1, max: 10 ** (11 + places) - 1 }),
              ),
            ),
          ([places, n]) => {
            const text = (n / 10 ** places).toFixed(places);
            const kept = value(decimalCodec, Number(text));
            return kept !== null && kept === Number(text) && Number(String(kept)).toFixed(places) === text;
          },
        ),
      );
    });
  });

  describe('date', () => {
    it('is a calendar date YYYY-MM-DD', () => {
      expect(value(dateCodec, '2024-02-29')).to.equal('2024-02-29');
      expect(codeOf(dateCodec, '2023-02-29')).to.equal('invalid_value');
      expect(codeOf(dateCodec, '2026-13-01')).to.equal('invalid_value');
      expect(codeOf(dateCodec, '2026-1-01')).to.equal('invalid_value');
      expect(codeOf(dateCodec, '2026-03-01T00:00:00Z')).to.equal('invalid_value');
      expect(codeOf(dateCodec, 20260301)).to.equal('invalid_type');
    });
    it('property: every day of the calendar, and only those', () => {
      fc.assert(
        fc.property(fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }), (d) =>
          isCalendarDate(d.toISOString().slice(0, 10)),
        ),
      );
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 9999 }),
          fc.integer({ min: 1, max: 12 }),
          fc.integer({ min: 1, max: 31 }),
          (y, m, d) => {
            const s = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
            const real = new Date(Date.UTC(2000, m - 1, d));
            real.setUTCFullYear(y);
            return isCalendarDate(s) === (real.getUTCDate() === d);
          },
        ),
      );
    });
  });

  describe('checkbox', () => {
    it('is true or false', () => {
      expect(value(checkboxCodec, false)).to.equal(false);
      expect(codeOf(checkboxCodec, 'true')).to.equal('invalid_type');
      expect(codeOf(checkboxCodec, 1)).to.equal('invalid_type');
    });
    it('property: only booleans and null are accepted', () => {
      fc.assert(
        fc.property(
          fc.anything(),
          (u) => (codeOf(checkboxCodec, u) === null) === (typeof u === 'boolean' || u === null),
        ),
      );
    });
  });

  describe('dropdown and multiselect', () => {
    const options = ['free', 'gold', 'platinum'];
    it('a dropdown holds one option; a multiselect a set of at most 50, duplicates dropped', () => {
      expect(value(dropdownCodec(options), 'gold')).to.equal('gold');
      expect(codeOf(dropdownCodec(options), 'Gold')).to.equal('invalid_value');
      expect(value(multiselectCodec(options), ['gold', 'free', 'gold'])).to.deep.equal(['gold', 'free']);
      expect(value(multiselectCodec(options), [])).to.equal(null);
      expect(codeOf(multiselectCodec(options), ['gold', 'silver'])).to.equal('invalid_value');
      expect(codeOf(multiselectCodec(options), Array(51).fill('gold'))).to.equal('invalid_length');
      expect(codeOf(multiselectCodec(options), 'gold')).to.equal('invalid_type');
    });
    it('property: a subset of the options is kept as that set', () => {
      fc.assert(
        fc.property(fc.subarray(options), (s) => {
          const kept = value(multiselectCodec(options), s);
          return s.length === 0 ? kept === null : JSON.stringify(kept) === JSON.stringify(s);
        }),
      );
      fc.assert(
        fc.property(
          fc.string(),
          (s) => (codeOf(dropdownCodec(options), s) === null) === (s === '' || options.includes(s)),
        ),
      );
    });
  });

  describe('regexp (RE2)', () => {
    it('matches the pattern anywhere in the value (anchor it to match the whole), at most 255 characters', () => {
      const order = regexpCodec('^ORD-[0-9]{4}$');
      expect(value(order, 'ORD-1234')).to.equal('ORD-1234');
      expect(codeOf(order, 'ORD-12345')).to.equal('invalid_value');
      expect(value(regexpCodec('[0-9]'), 'abc1')).to.equal('abc1');
      expect(codeOf(regexpCodec('.*'), 'x'.repeat(256))).to.equal('invalid_length');
    });
    it('refuses what RE2 refuses (backreferences, lookaround) and runs in linear time', () => {
      expect(E.isLeft(compilePattern('(a)\\1'))).to.equal(true);
      expect(E.isLeft(compilePattern('(?=a)'))).to.equal(true);
      // Catastrophic for a backtracking engine: (a+)+$ on 30 a's and a b. RE2 answers at once.
      const started = process.hrtime.bigint();
      expect(codeOf(regexpCodec('^(a+)+$'), `${'a'.repeat(200)}b`)).to.equal('invalid_value');
      expect(Number(process.hrtime.bigint() - started) / 1e6).to.be.below(500);
    });
    it('property: the codec agrees with the pattern on every text it takes', () => {
      const codec = regexpCodec('^[a-c]+-[0-9]$');
      fc.assert(
        fc.property(fc.stringMatching(/^[a-d-0-9]{0,12}$/), (s) =>
          s === '' ? value(codec, s) === null : (codeOf(codec, s) === null) === /^[a-c]+-[0-9]$/.test(s),
        ),
      );
    });
  });

  it('customValueCodec picks the type rule of a definition', () => {
    expect(codeOf(customValueCodec({ type: 'integer', options: [], pattern: null }), 'x')).to.equal('invalid_type');
    expect(codeOf(customValueCodec({ type: 'dropdown', options: [{ value: 'a' }], pattern: null }), 'b')).to.equal(
      'invalid_value',
    );
  });
});
