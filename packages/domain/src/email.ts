import * as t from 'io-ts';
import { failWith } from './codecs/field-codecs.js';

export interface EmailBrand {
  readonly Email: unique symbol;
}

// local@domain: a practical subset of RFC 5321 (no quoted local parts, no IP literals): a
// local part of dot-separated atoms (no dot first, last or twice), a domain of LDH labels,
// whole address at most 254 characters.
const emailPattern =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

const isEmail = (s: string): boolean =>
  s.length <= 254 && emailPattern.test(s) && !s.startsWith('.') && !s.includes('..') && !s.includes('.@');

export type Email = t.Branded<string, EmailBrand>;

export const Email: t.Type<Email, string> = new t.Type<Email, string, unknown>(
  'Email',
  (u): u is Email => typeof u === 'string' && isEmail(u),
  (u, c) => {
    if (typeof u !== 'string') return failWith(u, c, 'invalid_type', 'must be a string');
    return isEmail(u)
      ? t.success(u as Email)
      : failWith(u, c, 'invalid_value', 'must be an e-mail address such as name@example.com');
  },
  (e) => e,
);

/** E-mail addresses are unique without regard to case: this is the key they are compared by. */
export const emailKey = (email: string): string => email.toLowerCase();
