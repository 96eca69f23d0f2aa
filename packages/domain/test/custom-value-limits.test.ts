import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import {
  checkboxCodec,
  customFieldsObject,
  customValueCodec,
  dateCodec,
  decimalCodec,
  decimalPlaces,
  dropdownCodec,
  integerCodec,
  isCalendarDate,
  isDecimal,
  multiselectCodec,
  regexpCodec,
  textCodec,
  toFieldErrors,
  type FieldError,
  type FieldType,
} from '../src/index.js';

// Each custom field type's values (contract §10) at and one past each limit, with the exact
// field error a body is answered with, and the codec a definition's type picks.

const errorsOf = (codec: { decode: (u: unknown) => E.Either<t.Errors, unknown> }, u: unknown) => {
  const r = codec.decode(u);
  return E.isLeft(r) ? toFieldErrors(r.left) : [];
};
const err = (code: FieldError['code'], message: string): FieldError[] => [{ field: '', code, message }];
const kept = <A>(codec: { decode: (u: unknown) => E.Either<unknown, A> }, u: unknown): A => {
  const r = codec.decode(u);
  if (E.isLeft(r)) throw new Error(`refused ${JSON.stringify(u)}`);
  return r.right;
};

describe('custom field values: limits and refusals (contract §10)', () => {
  it('text: at most 255 code points, Unicode only', () => {
    const text = textCodec(255);
    expect(text.name).to.equal('text of at most 255 characters');
    expect(kept(text, '\u{1F600}'.repeat(255))).to.have.length(510);
    expect(errorsOf(text, '\u{1F600}'.repeat(256))).to.deep.equal(
      err('invalid_length', 'must be at most 255 characters long (got 256)'),
    );
    expect(errorsOf(text, 5)).to.deep.equal(err('invalid_type', 'must be a string'));
    expect(errorsOf(text, 'a\udc00b')).to.deep.equal(
      err('invalid_value', 'must be Unicode text: it holds a UTF-16 surrogate without its pair'),
    );
  });

  it('integer: a safe integer, null unsets', () => {
    expect(integerCodec.name).to.equal('safe integer');
    expect(kept(integerCodec, null)).to.equal(null);
    expect(kept(integerCodec, -7)).to.equal(-7);
    expect(errorsOf(integerCodec, '7')).to.deep.equal(err('invalid_type', 'must be an integer'));
    expect(errorsOf(integerCodec, 2 ** 53)).to.deep.equal(
      err('invalid_value', 'must be an integer between -9007199254740991 and 9007199254740991'),
    );
  });

  describe('decimal: at most 4 decimals, |x| < 1e11, kept exactly', () => {
    it('counts the decimals of any finite number, in exponent form too', () => {
      expect([decimalPlaces(0), decimalPlaces(12), decimalPlaces(1.5), decimalPlaces(-2.25)]).to.deep.equal([
        0, 0, 1, 2,
      ]);
      expect(decimalPlaces(1e-7)).to.equal(7);
      expect(decimalPlaces(1.5e-7)).to.equal(8);
      expect(decimalPlaces(-1.25e-9)).to.equal(11);
      expect(decimalPlaces(1e21)).to.equal(0);
      expect(decimalPlaces(1.5e22)).to.equal(0);
    });
    it('isDecimal: 4 decimals and under 1e11 in size', () => {
      expect([isDecimal(1.2345), isDecimal(1.23456), isDecimal(-0.0001), isDecimal(0.00001)]).to.deep.equal([
        true,
        false,
        true,
        false,
      ]);
      expect([isDecimal(99999999999.9999), isDecimal(1e11), isDecimal(-1e11), isDecimal(-99999999999)]).to.deep.equal([
        true,
        false,
        false,
        true,
      ]);
      expect([isDecimal(Number.NaN), isDecimal(Infinity), isDecimal(-Infinity)]).to.deep.equal([false, false, false]);
    });
    it('refuses with the rule it breaks', () => {
      expect(decimalCodec.name).to.equal('decimal with at most 4 decimals');
      expect(kept(decimalCodec, null)).to.equal(null);
      expect(Object.is(kept(decimalCodec, -0), 0)).to.equal(true);
      expect(kept(decimalCodec, -12.5)).to.equal(-12.5);
      expect(errorsOf(decimalCodec, '1.5')).to.deep.equal(err('invalid_type', 'must be a number'));
      expect(errorsOf(decimalCodec, 1.23456)).to.deep.equal(err('invalid_value', 'must have at most 4 decimals'));
      expect(errorsOf(decimalCodec, 1e11)).to.deep.equal(
        err('invalid_value', 'must lie between -99999999999.9999 and 99999999999.9999'),
      );
      expect(errorsOf(decimalCodec, Infinity)).to.have.length(1);
    });
  });

  describe('date: YYYY-MM-DD, a day of the calendar', () => {
    it('knows the leap years of the Gregorian calendar', () => {
      const feb29 = (y: string) => isCalendarDate(`${y}-02-29`);
      expect(['2024', '2000', '0400', '2023', '1900', '2100', '2026'].map(feb29)).to.deep.equal([
        true,
        true,
        true,
        false,
        false,
        false,
        false,
      ]);
      expect(isCalendarDate('2023-02-28')).to.equal(true);
    });
    it('knows each month length and refuses zero or past-the-end parts', () => {
      expect(['2026-01-31', '2026-04-30', '2026-12-31', '0001-01-01', '9999-12-31'].every(isCalendarDate)).to.equal(
        true,
      );
      for (const bad of [
        '2026-04-31',
        '2026-06-31',
        '0000-01-01',
        '2026-00-10',
        '2026-13-01',
        '2026-01-00',
        '2026-01-32',
      ])
        expect(isCalendarDate(bad), bad).to.equal(false);
      for (const bad of ['x2026-03-01', '2026-03-01x', '2026-3-01', '26-03-01', '2026/03/01', ''])
        expect(isCalendarDate(bad), bad).to.equal(false);
    });
    it('refuses with the rule it breaks', () => {
      expect(dateCodec.name).to.equal('date YYYY-MM-DD');
      expect(kept(dateCodec, null)).to.equal(null);
      expect(errorsOf(dateCodec, 20260301)).to.deep.equal(err('invalid_type', 'must be a date string (YYYY-MM-DD)'));
      expect(errorsOf(dateCodec, '2026-02-30')).to.deep.equal(
        err('invalid_value', 'must be a date YYYY-MM-DD that the calendar has, like 2026-03-01'),
      );
    });
  });

  it('checkbox: true or false, null unsets', () => {
    expect(checkboxCodec.name).to.equal('boolean');
    expect(kept(checkboxCodec, null)).to.equal(null);
    expect(kept(checkboxCodec, true)).to.equal(true);
    expect(errorsOf(checkboxCodec, 0)).to.deep.equal(err('invalid_type', 'must be true or false'));
  });

  describe('dropdown and multiselect', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `o${String(i + 1)}`);
    it('dropdown: one option; null or "" unsets; the refusal lists the options, at most 20 of them', () => {
      const codec = dropdownCodec(['free', 'gold']);
      expect(codec.name).to.equal('one of the options');
      expect([kept(codec, null), kept(codec, '')]).to.deep.equal([null, null]);
      expect(errorsOf(codec, 1)).to.deep.equal(err('invalid_type', 'must be a string (one of the options)'));
      expect(errorsOf(codec, 'silver')).to.deep.equal(err('invalid_value', 'must be one of: free, gold'));
      expect(errorsOf(dropdownCodec(twenty), 'x')).to.deep.equal(
        err('invalid_value', `must be one of: ${twenty.join(', ')}`),
      );
      expect(errorsOf(dropdownCodec([...twenty, 'o21', 'o22']), 'x')).to.deep.equal(
        err('invalid_value', `must be one of: ${twenty.join(', ')}, ... (22 in all)`),
      );
    });
    it('multiselect: at most 50 values, each an option', () => {
      const codec = multiselectCodec(['api', 'ui']);
      expect(codec.name).to.equal('list of options');
      expect(kept(codec, null)).to.equal(null);
      expect(kept(codec, Array(50).fill('ui'))).to.deep.equal(['ui']);
      expect(errorsOf(codec, Array(51).fill('ui'))).to.deep.equal(
        err('invalid_length', 'must hold at most 50 values (got 51)'),
      );
      expect(errorsOf(codec, 'ui')).to.deep.equal(err('invalid_type', 'must be an array of option values'));
      expect(errorsOf(codec, ['ui', 'db'])).to.deep.equal(err('invalid_value', 'must hold only options: api, ui'));
      expect(errorsOf(codec, [1])).to.deep.equal(err('invalid_value', 'must hold only options: api, ui'));
      expect(errorsOf(multiselectCodec([...twenty, 'o21']), ['x'])).to.deep.equal(
        err('invalid_value', `must hold only options: ${twenty.join(', ')}, ... (21 in all)`),
      );
    });
  });

  it('regexp: a text the pattern matches', () => {
    const codec = regexpCodec('^ORD-[0-9]+$');
    expect(codec.name).to.equal('text matching ^ORD-[0-9]+$');
    expect(kept(codec, 'ORD-1')).to.equal('ORD-1');
    expect([kept(codec, null), kept(codec, '')]).to.deep.equal([null, null]);
    expect(errorsOf(codec, 'ORD-')).to.deep.equal(err('invalid_value', 'must match ^ORD-[0-9]+$'));
    expect(errorsOf(codec, 12)).to.deep.equal(err('invalid_type', 'must be a string'));
    // A pattern RE2 refuses (no definition keeps one) matches nothing.
    expect(errorsOf(regexpCodec('(a'), 'a')).to.deep.equal(err('invalid_value', 'must match (a'));
  });

  it("a definition's type picks its codec", () => {
    const rule = (type: FieldType, pattern: string | null = null) => ({
      type,
      options: [{ value: 'api' }, { value: 'ui' }],
      pattern,
    });
    const accepts = (type: FieldType, u: unknown, pattern: string | null = null) =>
      E.isRight(customValueCodec(rule(type, pattern)).decode(u));
    const long = 'x'.repeat(256);
    const table: [FieldType, unknown, boolean][] = [
      ['text', long, false],
      ['textarea', long, true],
      ['textarea', 'x'.repeat(10001), false],
      ['integer', 1.5, false],
      ['integer', 2, true],
      ['decimal', 1.5, true],
      ['decimal', 1.00001, false],
      ['date', '2026-02-28', true],
      ['date', '2026-02-30', false],
      ['checkbox', true, true],
      ['checkbox', 'true', false],
      ['dropdown', 'ui', true],
      ['dropdown', ['ui'], false],
      ['multiselect', ['ui', 'api'], true],
      ['multiselect', 'ui', false],
    ];
    for (const [type, u, ok] of table)
      expect(accepts(type, u), `${type} ${JSON.stringify(u).slice(0, 20)}`).to.equal(ok);
    expect(accepts('regexp', 'b', '^a$')).to.equal(false);
    expect(accepts('regexp', 'a', '^a$')).to.equal(true);
    expect(accepts('regexp', long, '.')).to.equal(false);
    // No pattern (no regexp definition lacks one): only the text rule applies.
    expect(accepts('regexp', 'anything', null)).to.equal(true);
  });

  describe("a body's custom_fields", () => {
    it('is an object of at most 100 keys, or null', () => {
      const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${String(i)}`, i]));
      expect(kept(customFieldsObject, null)).to.equal(null);
      expect(kept(customFieldsObject, keys(100))).to.deep.equal(keys(100));
      expect(errorsOf(customFieldsObject, keys(101))).to.deep.equal(
        err('invalid_length', 'must hold at most 100 keys (got 101)'),
      );
      const shape = err('invalid_type', 'must be an object of values by field key (GET /v1/ticket_fields)');
      for (const bad of [[], ['a'], 'x', 5, true])
        expect(errorsOf(customFieldsObject, bad), String(bad)).to.deep.equal(shape);
    });
    it('says what it accepts', () => {
      expect(customFieldsObject.shape).to.deep.equal({ kind: 'customValues', maxKeys: 100 });
      expect(customFieldsObject.name).to.equal('object of custom field values by key');
      expect([null, {}, { a: 1 }, [], 'x', 5].map((u) => customFieldsObject.is(u))).to.deep.equal([
        true,
        true,
        true,
        false,
        false,
        false,
      ]);
    });
  });
});
