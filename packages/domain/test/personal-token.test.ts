import { expect } from 'chai';
import fc from 'fast-check';
import { crc32 as zlibCrc32 } from 'node:zlib';
import {
  base62Alphabet,
  crc32,
  isPersonalTokenShaped,
  isWellFormedPersonalToken,
  personalToken,
  personalTokenLength,
  personalTokenLimits,
  personalTokenPrefix,
  personalTokenRandomLength,
} from '../src/index.js';

// The personal-token format (contract §8.1): `stp_` + 40 base62 characters of randomness + 6
// base62 characters of the CRC32 of those 40. The checksum is what lets the service refuse a
// mistyped token from the string alone, before any store lookup (the application's
// personal-tokens.test.ts counts the lookups); these tests hold the format to its rules, with
// zlib's CRC-32 and a base62 decoder of their own as the oracle.

const base62Chars = base62Alphabet.split(''); // ASCII only
const base62Char = fc.constantFrom(...base62Chars);
const randomPart = fc.string({ unit: base62Char, minLength: 40, maxLength: 40 });
const decode62 = (s: string): number => s.split('').reduce((n, ch) => n * 62 + base62Alphabet.indexOf(ch), 0);
const encode62 = (n: number): string => {
  let out = '';
  for (let rest = n; rest > 0; rest = Math.floor(rest / 62)) out = base62Alphabet.charAt(rest % 62) + out;
  return out.padStart(6, '0');
};
/** The token `random` would make if any 40 characters were allowed: prefix, the characters, their CRC32 in base62. */
const withChecksum = (random: string): string => `stp_${random}${encode62(zlibCrc32(random))}`;

describe('domain: the personal-token format (contract §8.1)', () => {
  it('is stp_, 40 random base62 characters, 6 of checksum: 50 characters', () => {
    expect(base62Alphabet).to.equal('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
    expect([personalTokenPrefix, personalTokenRandomLength, personalTokenLength]).to.deep.equal(['stp_', 40, 50]);
  });

  it('keeps the tokens of earlier releases valid: the checksum of known randoms is what it was', () => {
    // Worked out by hand from zlib's CRC-32: 2520759182 = 2kaqcA, 750298507 = omAup (padded to 0omAup).
    const known: [string, string][] = [
      ['0'.repeat(40), `stp_${'0'.repeat(40)}2kaqcA`],
      ['0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcd', 'stp_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcd0omAup'],
      ['z'.repeat(40), `stp_${'z'.repeat(40)}2x81PZ`],
    ];
    for (const [random, token] of known) {
      expect(personalToken(random)).to.equal(token);
      expect(isWellFormedPersonalToken(token), token).to.equal(true);
    }
  });

  it('checksums with CRC-32 as zlib computes it', () => {
    expect(crc32('')).to.equal(0);
    expect(crc32('123456789')).to.equal(0xcbf43926);
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 64 }), (s) => {
        expect(crc32(s)).to.equal(zlibCrc32(s));
      }),
    );
  });

  it('mints, from any 40 base62 characters, a 50-character token that is well formed and ends with their CRC32 in base62', () => {
    fc.assert(
      fc.property(randomPart, (random) => {
        const token = personalToken(random);
        expect(token).to.have.length(50);
        expect(token.slice(0, 44)).to.equal(`stp_${random}`);
        expect(decode62(token.slice(44))).to.equal(zlibCrc32(random));
        expect(isWellFormedPersonalToken(token)).to.equal(true);
        expect(isPersonalTokenShaped(token)).to.equal(true);
      }),
    );
  });

  it('refuses to mint from anything but exactly 40 base62 characters', () => {
    for (const bad of [
      '0'.repeat(39),
      '0'.repeat(41),
      '',
      `${'0'.repeat(39)}-`,
      `${'0'.repeat(39)}_`,
      `${'0'.repeat(39)}é`,
    ])
      expect(() => personalToken(bad), JSON.stringify(bad)).to.throw(
        'a personal token is made of 40 base62 characters',
      );
  });
});

describe('domain: telling a personal token apart', () => {
  it('by its prefix alone: such a token is never looked up as a login token, well formed or not', () => {
    expect(isPersonalTokenShaped('stp_')).to.equal(true);
    expect(isPersonalTokenShaped('stp_mistyped')).to.equal(true);
    for (const other of ['', 'stp', 'STP_abc', 'xstp_abc', ' stp_abc', 'sTp_abc', 'eyJhbGciOi.stp_'])
      expect(isPersonalTokenShaped(other), other).to.equal(false);
  });

  it('refuses a token with any one character mistyped, in its random part or its checksum', () => {
    fc.assert(
      fc.property(randomPart, fc.nat(45), base62Char, (random, at, ch) => {
        const token = personalToken(random);
        const i = 4 + at;
        fc.pre(token[i] !== ch);
        expect(isWellFormedPersonalToken(token.slice(0, i) + ch + token.slice(i + 1))).to.equal(false);
      }),
    );
  });

  it('refuses a wrong prefix, length or alphabet, even when the checksum matches what is there', () => {
    const token = personalToken('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcd');
    expect(isWellFormedPersonalToken(`stq_${token.slice(4)}`), 'prefix').to.equal(false);
    expect(isWellFormedPersonalToken(`STP_${token.slice(4)}`), 'prefix case').to.equal(false);
    expect(isWellFormedPersonalToken(token.slice(0, -1)), 'one short').to.equal(false);
    expect(isWellFormedPersonalToken(`${token}0`), 'one long').to.equal(false);
    expect(isWellFormedPersonalToken(''), 'empty').to.equal(false);
    const [random, checksum] = [token.slice(4, 44), token.slice(44)];
    expect(isWellFormedPersonalToken(`stp_${random}0${checksum}`), 'a stray character before the checksum').to.equal(
      false,
    );
    // Checksums that match their 40 characters, but those are not all base62.
    for (const random of [
      `${'0'.repeat(39)}-`,
      `${'0'.repeat(39)}_`,
      `-${'A'.repeat(39)}`,
      `${'a'.repeat(20)}.${'a'.repeat(19)}`,
    ])
      expect(isWellFormedPersonalToken(withChecksum(random)), random).to.equal(false);
    // A 50-character string whose checksum matches, but with another 4-character prefix.
    expect(isWellFormedPersonalToken(`sxp_${token.slice(4)}`)).to.equal(false);
  });

  it('refuses what a token is not: the right length and checksum are not enough without the prefix', () => {
    fc.assert(
      fc.property(randomPart, fc.string({ unit: base62Char, minLength: 4, maxLength: 4 }), (random, prefix) => {
        const token = personalToken(random);
        fc.pre(prefix !== 'stp_');
        expect(isWellFormedPersonalToken(prefix + token.slice(4))).to.equal(false);
      }),
    );
  });
});

describe('domain: the limits of personal tokens (contract §8.1)', () => {
  it('a name of 1-100 characters, 90 days by default, at most 366 ahead, last_used_at at most once a minute, 100 live per user', () => {
    expect(personalTokenLimits).to.deep.equal({
      name: { min: 1, max: 100 },
      defaultDays: 90,
      maxDays: 366,
      lastUsedIntervalMs: 60_000,
      maxLive: 100,
    });
  });
});
