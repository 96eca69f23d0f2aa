import { expect } from 'chai';
import fc from 'fast-check';
import { codePointLength, compareText } from '../src/index.js';

/** JavaScript's own string order: UTF-16 code units. */
const utf16Less = (a: string, b: string): boolean => a < b;
const sign = (n: number): number => Math.sign(n) || 0;

/** UTF-8 byte order, which is code point order: the order MongoDB compares strings in. */
const utf8Order = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

// Strings mixing the ranges where UTF-16 order and code point order disagree: ASCII,
// Latin-1, the top of the BMP (U+E000-U+FFFF) and astral characters (surrogate pairs).
const edgeUnit = fc.oneof(
  fc.constantFrom('a', 'Z', 'z', 'é', '\uE000', '\uFFFF', '\uFF21', '𝒜', '😀', '\u{10FFFF}'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const edgeText = fc.string({ unit: edgeUnit, maxLength: 6 });

describe('text', () => {
  describe('codePointLength', () => {
    it('counts code points, so an accented letter or an emoji is one character', () => {
      expect(codePointLength('')).to.equal(0);
      expect(codePointLength('abc')).to.equal(3);
      expect(codePointLength('é')).to.equal(1);
      expect(codePointLength('😀')).to.equal(1);
      expect('😀'.length).to.equal(2); // what the contract's limits must not count
      expect(codePointLength('a😀b𝒜')).to.equal(4);
    });

    it('equals the number of code points of any text', () => {
      fc.assert(
        fc.property(fc.array(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), { maxLength: 20 }), (cps) => {
          expect(codePointLength(cps.join(''))).to.equal(cps.length);
        }),
        { numRuns: 200 },
      );
    });
  });

  describe('compareText (code point order)', () => {
    it('puts upper case before lower case ("Z" < "a")', () => {
      expect(compareText('Z', 'a')).to.be.lessThan(0);
      expect(compareText('a', 'Z')).to.be.greaterThan(0);
    });

    it('puts accented letters after every ASCII letter ("é" after "z")', () => {
      expect(compareText('z', 'é')).to.be.lessThan(0);
      expect(compareText('éclair', 'zoo')).to.be.greaterThan(0);
    });

    it('puts astral characters after the whole BMP ("𝒜" after "\\uFFFF"), unlike UTF-16 order', () => {
      expect(utf16Less('𝒜', '\uFFFF')).to.equal(true); // the surrogate 0xD835 < 0xFFFF
      expect(compareText('𝒜', '\uFFFF')).to.be.greaterThan(0);
      expect(compareText('\uE000', '😀')).to.be.lessThan(0);
      expect(compareText('𝒜', '😀')).to.be.lessThan(0); // U+1D49C < U+1F600
    });

    it('puts a prefix before its extensions and finds equal texts equal', () => {
      expect(compareText('ab', 'abc')).to.be.lessThan(0);
      expect(compareText('abc', 'ab')).to.be.greaterThan(0);
      expect(compareText('', 'a')).to.be.lessThan(0);
      expect(compareText('same 𝒜', 'same 𝒜')).to.equal(0);
    });

    it('agrees with UTF-8 byte order on any texts', () => {
      fc.assert(
        fc.property(edgeText, edgeText, (a, b) => {
          expect(sign(compareText(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).to.equal(
            sign(utf8Order(a, b)),
          );
        }),
        { numRuns: 500 },
      );
    });

    it('is antisymmetric and zero only for equal texts', () => {
      fc.assert(
        fc.property(edgeText, edgeText, (a, b) => {
          expect(sign(compareText(a, b))).to.equal(-sign(compareText(b, a)));
          expect(compareText(a, b) === 0).to.equal(a === b);
        }),
        { numRuns: 300 },
      );
    });
  });
});

describe('compareText at the edges of the surrogate range', () => {
  it('puts a code point above U+FFFF (a surrogate pair) after U+E000-U+FFFF, on either side', () => {
    expect(compareText('\u{10000}', '\uffff')).to.be.above(0);
    expect(compareText('\uffff', '\u{10000}')).to.be.below(0);
    expect(compareText('\udfff', '\ue000')).to.be.above(0);
    expect(compareText('\ue000', '\udfff')).to.be.below(0);
    expect(compareText('\ud7ff', '\ud800')).to.be.below(0);
  });
});
