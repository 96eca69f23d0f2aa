import { expect } from 'chai';
import fc from 'fast-check';
import {
  compareCustomScalars,
  compilePattern,
  copyCustomValues,
  customFieldLimits,
  customValueOf,
  fieldKeyPattern,
  fieldTypes,
  hasOptions,
  isRangeType,
  isSortableType,
  isTextType,
  noCustomValues,
  sameCustomValue,
  sameCustomValues,
  type FieldType,
} from '../src/index.js';
import { leftOf, rightOf } from '../test-support/mothers.js';

// Contract §10's nine field types and what each takes (options, ranges, sort, words), the key
// rule, RE2 patterns, and how a ticket's values compare and copy.

/** What contract §10 says of each type: options, `.gte`/`.lte`, `sort=cf.<key>`, `q` words. */
const contract: Record<FieldType, { options: boolean; range: boolean; sort: boolean; words: boolean }> = {
  text: { options: false, range: false, sort: true, words: true },
  textarea: { options: false, range: false, sort: false, words: true },
  integer: { options: false, range: true, sort: true, words: false },
  decimal: { options: false, range: true, sort: true, words: false },
  date: { options: false, range: true, sort: true, words: false },
  checkbox: { options: false, range: false, sort: true, words: false },
  dropdown: { options: true, range: false, sort: true, words: false },
  multiselect: { options: true, range: false, sort: false, words: false },
  regexp: { options: false, range: false, sort: true, words: true },
};

describe('custom field types (contract §10)', () => {
  it('are the nine types of the contract', () => {
    expect([...fieldTypes].sort()).to.deep.equal(Object.keys(contract).sort());
  });

  it('each takes options, ranges, sorts and words exactly as the contract says', () => {
    for (const type of fieldTypes) {
      const got = { options: hasOptions(type), range: isRangeType(type), sort: isSortableType(type) };
      expect({ type, ...got, words: isTextType(type) }).to.deep.equal({ type, ...contract[type] });
    }
  });

  it('limits: the contract numbers', () => {
    expect(customFieldLimits).to.deep.include({
      definitions: 100,
      text: 255,
      textarea: 10000,
      regexp: 255,
      options: 500,
      multiselect: 50,
      decimals: 4,
    });
    expect(customFieldLimits.key).to.deep.equal({ min: 1, max: 64 });
    expect(customFieldLimits.optionValue).to.deep.equal({ min: 1, max: 64 });
  });

  describe('key pattern [a-z][a-z0-9_]*', () => {
    it('takes a lower-case letter first, then letters, digits and underscores', () => {
      for (const ok of ['a', 'z', 'order_no', 'a1', 'x_9_y', 'abc'])
        expect(fieldKeyPattern.test(ok), ok).to.equal(true);
    });
    it('refuses anything else at any position', () => {
      for (const bad of ['', '1a', '_a', 'Ab', 'aB', 'a-b', 'a b', 'a-', 'é', 'aé', ' a', 'a\n'])
        expect(fieldKeyPattern.test(bad), JSON.stringify(bad)).to.equal(false);
    });
    it('property: agrees with the rule character by character', () => {
      fc.assert(
        fc.property(
          fc.string({ maxLength: 8, unit: fc.constantFrom('a', 'q', 'z', '0', '9', '_', 'A', '-', ' ') }),
          (s) => {
            const rule = s.length > 0 && /[a-z]/.test(s[0]!) && /^[a-z0-9_]*$/.test(s.slice(1));
            return fieldKeyPattern.test(s) === rule;
          },
        ),
      );
    });
  });

  describe('patterns (RE2)', () => {
    it('match somewhere in the value unless anchored', () => {
      const test = rightOf(compilePattern('[0-9]{3}'));
      expect(test('ab123cd')).to.equal(true);
      expect(test('ab12cd')).to.equal(false);
      const anchored = rightOf(compilePattern('^[0-9]{3}$'));
      expect(anchored('123')).to.equal(true);
      expect(anchored('1234')).to.equal(false);
    });
    it('a refused pattern says why, without the engine prefix', () => {
      expect(leftOf(compilePattern('(a'))).to.equal('missing closing ): `(a`');
      expect(leftOf(compilePattern('a{2,1}'))).to.equal('invalid repeat count: `{2,1}`');
      expect(leftOf(compilePattern('(?=a)'))).to.equal('invalid or unsupported Perl syntax: `(?=`');
      expect(leftOf(compilePattern('(a)\\1'))).to.equal('invalid escape sequence: `\\1`');
    });
    it('a pattern is compiled once: compiling it again gives the same test', () => {
      const first = rightOf(compilePattern('^x+$'));
      expect(rightOf(compilePattern('^[0-9]+$'))('12')).to.equal(true);
      expect(rightOf(compilePattern('^x+$'))).to.equal(first);
      expect([first('xxx'), first('xy')]).to.deep.equal([true, false]);
    });
    it('keeps at most 1000 compiled patterns: the 1001st starts afresh, and every pattern still tests right', () => {
      // Compile new patterns until one finds its predecessor evicted: the store was just emptied
      // and holds that pattern and its predecessor (compiled again).
      let i = 0;
      const tests = new Map<string, unknown>();
      const compileNew = (): string => {
        const p = `^q${String(i++)}$`;
        tests.set(p, rightOf(compilePattern(p)));
        return p;
      };
      let previous = compileNew();
      for (;;) {
        const p = compileNew();
        if (rightOf(compilePattern(previous)) !== tests.get(previous)) break;
        expect(i).to.be.below(1100);
        previous = p;
      }
      const kept = `^q${String(i - 1)}$`;
      // It holds 2; 998 more make 1000, all still kept.
      for (let n = 0; n < 998; n++) compileNew();
      expect(rightOf(compilePattern(kept))).to.equal(tests.get(kept));
      // The next new one empties it first.
      const last = compileNew();
      expect(rightOf(compilePattern(kept))).to.not.equal(tests.get(kept));
      expect(rightOf(compilePattern(last))).to.equal(tests.get(last));
      expect(rightOf(compilePattern(kept))(kept.slice(1, -1))).to.equal(true);
    });
  });

  describe('values', () => {
    it('a ticket without values has none; a value is found by field id', () => {
      expect(customValueOf(undefined, 1)).to.equal(undefined);
      expect(customValueOf(noCustomValues, 1)).to.equal(undefined);
      expect(customValueOf({ 3: 'x', 4: 5 }, 4)).to.equal(5);
      expect(Object.isFrozen(noCustomValues)).to.equal(true);
    });

    it('compare numbers by value, text by code point, false before true', () => {
      expect([compareCustomScalars(1, 2), compareCustomScalars(2, 1), compareCustomScalars(2, 2)]).to.deep.equal([
        -1, 1, 0,
      ]);
      expect(compareCustomScalars(-0.5, 0.25)).to.equal(-1);
      expect(Math.sign(compareCustomScalars('a', 'b'))).to.equal(-1);
      expect(Math.sign(compareCustomScalars('b', 'a'))).to.equal(1);
      expect(compareCustomScalars('same', 'same')).to.equal(0);
      // Code point order (MongoDB's): an astral character sorts after U+FFFD.
      expect(Math.sign(compareCustomScalars('\u{1F600}', '\uFFFD'))).to.equal(1);
      expect([compareCustomScalars(false, true), compareCustomScalars(true, false)]).to.deep.equal([-1, 1]);
      expect([compareCustomScalars(true, true), compareCustomScalars(false, false)]).to.deep.equal([0, 0]);
    });

    it('refuse to compare values of two types', () => {
      expect(() => compareCustomScalars('1', 1)).to.throw(
        TypeError,
        'values of one field have one type: string and number',
      );
      expect(() => compareCustomScalars(1, '1')).to.throw(TypeError, 'number and string');
      expect(() => compareCustomScalars(true, 1)).to.throw(TypeError, 'boolean and number');
      expect(() => compareCustomScalars(1, true)).to.throw(TypeError, 'number and boolean');
      expect(() => compareCustomScalars('true', true)).to.throw(TypeError, 'string and boolean');
      expect(() => compareCustomScalars(false, 'false')).to.throw(TypeError, 'boolean and string');
    });

    it('property: the order is total and antisymmetric on each type', () => {
      const check = <A extends string | number | boolean>(arb: fc.Arbitrary<A>): void => {
        fc.assert(
          fc.property(arb, arb, (a, b) => {
            const ab = compareCustomScalars(a, b);
            return Math.sign(ab) === -Math.sign(compareCustomScalars(b, a)) && (ab === 0) === (a === b);
          }),
        );
      };
      check(fc.string());
      check(fc.integer());
      check(fc.boolean());
    });

    it('a multiselect is the same in any order; other values by identity', () => {
      expect(sameCustomValue(['a', 'b'], ['b', 'a'])).to.equal(true);
      expect(sameCustomValue(['a', 'b'], ['a'])).to.equal(false);
      expect(sameCustomValue(['a'], ['a', 'b'])).to.equal(false);
      expect(sameCustomValue(['a', 'c'], ['a', 'b'])).to.equal(false);
      expect(sameCustomValue(['a'], 'a')).to.equal(false);
      expect(sameCustomValue('a', ['a'])).to.equal(false);
      expect(sameCustomValue('a', 'a')).to.equal(true);
      expect(sameCustomValue(1, '1')).to.equal(false);
      expect(sameCustomValue(undefined, undefined)).to.equal(true);
      expect(sameCustomValue(false, undefined)).to.equal(false);
    });

    it('two value sets are the same when they hold the same fields with the same values', () => {
      expect(sameCustomValues({ 1: 'a', 2: ['x', 'y'] }, { 2: ['y', 'x'], 1: 'a' })).to.equal(true);
      expect(sameCustomValues({}, {})).to.equal(true);
      expect(sameCustomValues({ 1: 'a' }, { 1: 'a', 2: 'b' })).to.equal(false);
      expect(sameCustomValues({ 1: 'a', 2: 'b' }, { 1: 'a' })).to.equal(false);
      expect(sameCustomValues({ 1: 'a' }, { 1: 'b' })).to.equal(false);
      expect(sameCustomValues({ 1: 'a' }, { 2: 'a' })).to.equal(false);
    });

    it('a copy holds the same values and shares no list with the original', () => {
      const original = { 1: 'a', 2: 7, 3: ['x', 'y'], 4: false };
      const copy = copyCustomValues(original);
      expect(copy).to.deep.equal(original);
      expect(copy[3]).to.not.equal(original[3]);
      (copy[3] as string[]).push('z');
      expect(original[3]).to.deep.equal(['x', 'y']);
    });
  });
});
