import type { Clock, TokenGenerator } from '@support/application';
import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits per token, base64url; stores see only the SHA-256. */
export const cryptoTokens: TokenGenerator = {
  generate: () => randomBytes(32).toString('base64url'),
  digest: (token) => createHash('sha256').update(token, 'utf8').digest('hex'),
};

export const systemClock: Clock = { now: () => Date.now() };

/** A password for the first admin: 18 random bytes, base64url (24 characters). */
export const generatedPassword = (): string => randomBytes(18).toString('base64url');
