import { expect } from 'chai';
import fc from 'fast-check';
import type { Answer } from '../harness.js';
import type { Real } from './check.js';
import type { MUser, Model } from './model.js';

// What every step of a sequence shares: the words it writes, how it sends a request and
// checks the status, and how a command is made (see commands.ts).

export type Cmd = fc.AsyncCommand<Model, Real>;

export const words = ['printer', 'fire', 'paper', 'jam', 'Café', 'naïve', 'ÉCOLE', 'vpn', 'down', 'x'];
export const phrase = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
export const names = ['Ada', 'Bob', 'Cléo', 'Dee', 'Eve'];
export const emails = [
  'ada@example.com',
  'bob@example.com',
  'ADA@EXAMPLE.COM',
  'cleo@example.org',
  'dee@example.com',
  'eve@example.net',
];
export const groupNames = ['Tier 1', 'tier 1', 'Billing', 'Ops'];

export const send = (r: Real, method: string, path: string, token: string, body?: unknown): Promise<Answer> =>
  r.api.request(method, path, {
    token,
    ...(body === undefined
      ? {}
      : {
          body: JSON.stringify(body),
          headers: { 'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
        }),
  });

export const expectStatus = (a: Answer, status: number, what: string): void => {
  expect(a.status, `${what}: ${a.text.slice(0, 400)}`).to.equal(status);
};

export const users = (m: Model): MUser[] => [...m.users.values()];
/** Customers who can act for themselves (a token, still customers). */
export const customers = (m: Model): MUser[] => users(m).filter((u) => u.role === 'customer' && u.token !== null);
export const isStaff = (u: MUser | undefined): boolean => u !== undefined && u.role !== 'customer';

export const command = (
  name: string,
  check: (m: Readonly<Model>) => boolean,
  run: (m: Model, r: Real) => Promise<void>,
): Cmd => ({
  check,
  run,
  toString: () => name,
});
