import type { SortRule } from '@support/domain';
import { expect } from 'chai';
import fc from 'fast-check';
import { FirstIds } from '../src/tickets/id-order.js';

// FirstIds keeps a sorted window of the first `need` ids (put in place by moving its ids, no
// splice); whatever the order it is offered the ids in (one at a time or a stretch at a time),
// it answers the first `need` of all of them in the order of the rules, as a full sort does.

const rules = (direction: 'asc' | 'desc'): SortRule[] =>
  [
    { field: 'priority', direction },
    { field: 'id', direction },
  ] as SortRule[];

describe('FirstIds (the first ids of a page, without sorting every match)', () => {
  it('answers the first `need` ids in the rules’ order, whatever order they are offered in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 80 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.integer({ min: 0, max: 81 }),
        (ids, need, direction, split) => {
          const key = (id: number) => id % 4;
          const sign = direction === 'asc' ? 1 : -1;
          const comparer = (rule: SortRule) =>
            rule.field === 'id'
              ? (a: number, b: number) => sign * (a - b)
              : (a: number, b: number) => sign * (key(a) - key(b));
          const expected = [...ids].sort((a, b) => sign * (key(a) - key(b)) || sign * (a - b)).slice(0, need);
          const window = new FirstIds(rules(direction).map(comparer), need);
          // The first `split` ids one at a time, the rest as a stretch of a larger array.
          const at = Math.min(split, ids.length);
          for (const id of ids.slice(0, at)) window.offer(id);
          window.offerSlice([0, ...ids, 0], 1 + at, 1 + ids.length);
          expect(window.ids).to.deep.equal(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
