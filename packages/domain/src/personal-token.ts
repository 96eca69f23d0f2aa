import type { Scope } from './scope.js';

// Personal access tokens (contract §8.1): `stp_` + 40 base62 characters of randomness (238
// bits) + 6 base62 characters of the CRC32 of those 40. The prefix lets secret scanners
// recognise a leaked token; the checksum lets the server refuse a mistyped one without a store
// lookup. The randomness comes from a port; this is only the format.

export const personalTokenPrefix = 'stp_';
export const personalTokenRandomLength = 40;
const checksumLength = 6;
export const personalTokenLength = personalTokenPrefix.length + personalTokenRandomLength + checksumLength;

export const personalTokenLimits = {
  name: { min: 1, max: 100 },
  /** Without expires_at a token lives this many days. */
  defaultDays: 90,
  /** expires_at at most this many days ahead. */
  maxDays: 366,
  /** last_used_at is written at most once per this many ms per token. */
  lastUsedIntervalMs: 60_000,
  /** A user holds at most this many personal tokens that have not expired (contract §11). */
  maxLive: 100,
} as const;

/** What POST /v1/users/me/tokens asks for, decoded; expiresAt in epoch ms. */
export interface PersonalTokenCreateInput {
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly expiresAt?: number;
}

export const base62Alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const crcTable: readonly number[] = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (IEEE 802.3, as zlib's crc32) of an ASCII string. */
export const crc32 = (ascii: string): number => {
  let crc = 0xffffffff;
  for (let i = 0; i < ascii.length; i++) crc = (crcTable[(crc ^ ascii.charCodeAt(i)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
};

/** `n` in base62, left-padded with 0 to `width` characters. */
const base62 = (n: number, width: number): string => {
  let out = '';
  let rest = n;
  while (rest > 0) {
    out = base62Alphabet.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
};

const randomPart = /^[0-9A-Za-z]{40}$/;

/** The token made of 40 random base62 characters. */
export const personalToken = (random: string): string => {
  if (!randomPart.test(random)) throw new Error('a personal token is made of 40 base62 characters');
  return `${personalTokenPrefix}${random}${base62(crc32(random), checksumLength)}`;
};

/** Whether a token is meant to be a personal token (its prefix): such a token is never looked up as a login token. */
export const isPersonalTokenShaped = (token: string): boolean => token.startsWith(personalTokenPrefix);

/** Whether a personal token is well formed: length, alphabet and checksum. A token that is not is refused without a lookup. */
export const isWellFormedPersonalToken = (token: string): boolean => {
  if (token.length !== personalTokenLength || !isPersonalTokenShaped(token)) return false;
  const random = token.slice(personalTokenPrefix.length, personalTokenPrefix.length + personalTokenRandomLength);
  return randomPart.test(random) && token.slice(-checksumLength) === base62(crc32(random), checksumLength);
};
