import fc from 'fast-check';
import { compareTickets, sortFields, type SortField, type SortRule, type Ticket } from '../../src/index.js';

// Helpers of the sort tests (sort*.test.ts).

export const sign = (n: number): number => Math.sign(n) || 0;
export const ids = (ts: readonly Ticket[]): number[] => ts.map((t) => t.id);
export const sorted = (ts: readonly Ticket[], sort: readonly SortRule[]): Ticket[] =>
  [...ts].sort(compareTickets(sort));
export const rule = (field: SortField, direction: 'asc' | 'desc' = 'asc'): SortRule => ({ field, direction });

/** Any sort rules, each field at most once. */
export const rulesArb = fc.uniqueArray(
  fc.record({ field: fc.constantFrom(...sortFields), direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc') }),
  { selector: (r) => r.field, maxLength: 4 },
);
