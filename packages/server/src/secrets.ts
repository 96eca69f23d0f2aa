import type { Clock, TokenGenerator } from '@support/application';
import { base62Alphabet } from '@support/domain';
import { hash, randomBytes } from 'node:crypto';

/**
 * 256 random bits per token, base64url; stores see only the SHA-256. Every authenticated
 * request digests its token: the one-shot crypto.hash costs about a quarter of a Hash object's
 * create, update and digest.
 */
export const cryptoTokens: TokenGenerator = {
  generate: () => randomBytes(32).toString('base64url'),
  digest: (token) => hash('sha256', token, 'hex'),
  base62: (length) => {
    // Rejection sampling: a byte below 248 (4 x 62) maps uniformly onto the alphabet.
    let out = '';
    while (out.length < length) {
      for (const b of randomBytes(length * 2)) {
        if (b < 248 && out.length < length) out += base62Alphabet.charAt(b % 62);
      }
    }
    return out;
  },
};

export const systemClock: Clock = { now: () => Date.now() };

/** A password for the first admin: 18 random bytes, base64url (24 characters). */
export const generatedPassword = (): string => randomBytes(18).toString('base64url');
