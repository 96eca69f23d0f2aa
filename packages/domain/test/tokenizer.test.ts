import { expect } from 'chai';
import fc from 'fast-check';
import { distinctWords, foldText, tokenize } from '../src/index.js';

const wordShape = /^[\p{L}\p{N}]+$/u;

// Units for the case-insensitivity property. Random code points from the whole of
// Unicode almost never hit the pairs whose case mapping is not one-to-one, so this
// alphabet puts them in on purpose: Latin letters with and without accents (precomposed
// and combining), ß / ẞ / SS (one letter upper-cases to two), dotted and dotless i,
// ligatures, Greek sigma in both lower-case forms and iota subscript (ᾳ upper-cases to ΑΙ),
// Cyrillic, digits, white space and punctuation.
const caseAlphabet = [
  ...Array.from('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'),
  ...Array.from('àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝŸŒœ'),
  'ß',
  'ẞ',
  'İ',
  'ı',
  'ﬁ',
  'ﬀ',
  'ŉ',
  'ǅ',
  'σ',
  'ς',
  'Σ',
  'ᾳ',
  'ᾼ',
  'Ω',
  'ё',
  'Ё',
  'ж',
  'Ж',
  '\u0301',
  '\u0308',
  ...Array.from('0123456789'),
  ' ',
  '\t',
  '\n',
  ...Array.from('.,;:!?-_\'"()/@#'),
];
const caseText = fc.string({ unit: fc.constantFrom(...caseAlphabet), maxLength: 30 });
// Any code point (no lone surrogates): the tokenizer must produce well-formed words for any input.
const anyText = fc.string({ unit: 'binary', maxLength: 30 });
const anyGraphemes = fc.string({ unit: 'grapheme', maxLength: 15 });

describe('tokenizer', () => {
  describe('words', () => {
    it('splits on white space and punctuation, keeping text order and repeats', () => {
      expect(tokenize('foo-bar,baz.qux!  quux\tx\ny (z) a/b foo')).to.deep.equal([
        'foo',
        'bar',
        'baz',
        'qux',
        'quux',
        'x',
        'y',
        'z',
        'a',
        'b',
        'foo',
      ]);
    });

    it('treats underscores, apostrophes and symbols as separators (only letters and digits make words)', () => {
      expect(tokenize('snake_case')).to.deep.equal(['snake', 'case']);
      expect(tokenize("don't")).to.deep.equal(['don', 't']);
      expect(tokenize('fire🔥alarm a+b=c $5')).to.deep.equal(['fire', 'alarm', 'a', 'b', 'c', '5']);
    });

    it('keeps digits, alone and inside words', () => {
      expect(tokenize('Error 404 on v2, build 2024-01-31')).to.deep.equal([
        'error',
        '404',
        'on',
        'v2',
        'build',
        '2024',
        '01',
        '31',
      ]);
    });

    it('keeps letters of other scripts: CJK, Cyrillic, Greek, Arabic', () => {
      expect(tokenize('东京 タワー')).to.deep.equal(['东京', 'タワー']);
      expect(tokenize('Привет, МИР!')).to.deep.equal(['привет', 'мир']);
      expect(tokenize('Καλημέρα κόσμε')).to.deep.equal(['καλημερα', 'κοσμε']);
      expect(tokenize('مرحبا بالعالم')).to.deep.equal(['مرحبا', 'بالعالم']);
    });

    it('gives no words for empty text, white space or punctuation alone', () => {
      expect(tokenize('')).to.deep.equal([]);
      expect(tokenize(' \t\n')).to.deep.equal([]);
      expect(tokenize('...---!!!')).to.deep.equal([]);
    });
  });

  describe('folding', () => {
    it('ignores case', () => {
      expect(tokenize('PRINTER Printer printer')).to.deep.equal(['printer', 'printer', 'printer']);
    });

    it('ignores accents, precomposed or combining ("Café" ~ "cafe")', () => {
      expect(tokenize('Café')).to.deep.equal(['cafe']);
      expect(tokenize('Cafe\u0301')).to.deep.equal(['cafe']);
      expect(tokenize('CAFÉ crème brûlée Ёлка')).to.deep.equal(tokenize('cafe creme brulee елка'));
    });

    it('matches sharp s with double s in every case form ("STRASSE" ~ "straße" ~ "STRAẞE")', () => {
      expect(tokenize('straße')).to.deep.equal(['strasse']);
      expect(tokenize('STRASSE')).to.deep.equal(['strasse']);
      // U+1E9E, the capital sharp s, lower-cases to ß: folding must not stop there.
      expect(tokenize('STRAẞE')).to.deep.equal(['strasse']);
    });

    it('folds the Greek final sigma like any sigma', () => {
      expect(tokenize('ΟΔΟΣ')).to.deep.equal(tokenize('οδος'));
      expect(tokenize('οδος')).to.deep.equal(tokenize('οδοσ'));
      expect(tokenize('Σίσυφος ΣΊΣΥΦΟΣ')).to.deep.equal(['σισυφοσ', 'σισυφοσ']);
    });

    it('folds the Greek iota subscript to iota, as its upper case ΑΙ does', () => {
      expect(tokenize('ᾳ')).to.deep.equal(tokenize('ΑΙ'));
      expect(tokenize('ᾼ')).to.deep.equal(tokenize('αι'));
    });

    it('folds dotted and dotless i alike', () => {
      expect(tokenize('İstanbul')).to.deep.equal(['istanbul']);
      expect(tokenize('ıI')).to.deep.equal(['ii']);
    });

    it('folds compatibility forms: ligatures and full-width letters', () => {
      expect(tokenize('ﬁle')).to.deep.equal(['file']);
      expect(tokenize('ＡＢＣ１２')).to.deep.equal(['abc12']);
    });

    it('foldText keeps non-word characters and folds the rest', () => {
      expect(foldText('Café, STRASSE!')).to.equal('cafe, strasse!');
    });

    it('folds ASCII text (its short way) as the full fold does', () => {
      // A trailing "é" sends the text the full way; it folds to "e" and touches nothing before it.
      const asciiText = fc.string({
        unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
        maxLength: 40,
      });
      fc.assert(fc.property(asciiText, (text) => foldText(`${text}é`) === `${foldText(text)}e`));
      expect(foldText('ASCII Only 42')).to.equal('ascii only 42');
    });
  });

  describe('distinctWords', () => {
    it('lists each folded word once across several texts, in first-seen order', () => {
      expect(distinctWords('Printer on FIRE', 'fire, printer, smoke', 'Smoké')).to.deep.equal([
        'printer',
        'on',
        'fire',
        'smoke',
      ]);
    });

    it('gives no words for no texts', () => {
      expect(distinctWords()).to.deep.equal([]);
    });
  });

  describe('properties', () => {
    it('only produces non-empty runs of letters and digits', () => {
      fc.assert(
        fc.property(fc.oneof(anyText, anyGraphemes, caseText), (s) => {
          for (const w of tokenize(s)) {
            expect(w).to.not.equal('');
            expect(w).to.match(wordShape);
          }
        }),
        { numRuns: 500 },
      );
    });

    it('is idempotent on its own output: tokenize(words.join(" ")) equals words', () => {
      fc.assert(
        fc.property(fc.oneof(anyText, anyGraphemes, caseText), (s) => {
          const words = tokenize(s);
          expect(tokenize(words.join(' '))).to.deep.equal(words);
        }),
        { numRuns: 500 },
      );
    });

    it('is case-insensitive: upper- and lower-cased text give the same words', () => {
      fc.assert(
        fc.property(caseText, (s) => {
          expect(tokenize(s.toUpperCase())).to.deep.equal(tokenize(s.toLowerCase()));
          expect(tokenize(s)).to.deep.equal(tokenize(s.toLowerCase()));
        }),
        { numRuns: 500 },
      );
    });

    it('is case-insensitive over any code points too', () => {
      fc.assert(
        fc.property(fc.oneof(anyText, anyGraphemes), (s) => {
          expect(tokenize(s.toUpperCase())).to.deep.equal(tokenize(s.toLowerCase()));
        }),
        { numRuns: 300 },
      );
    });

    it('splits at white space: the words of "a b" are those of a, then those of b', () => {
      fc.assert(
        fc.property(fc.oneof(anyText, caseText), fc.oneof(anyText, caseText), (a, b) => {
          expect(tokenize(`${a} ${b}`)).to.deep.equal([...tokenize(a), ...tokenize(b)]);
        }),
        { numRuns: 300 },
      );
    });
  });
});
