import { expect } from 'chai';
import fc from 'fast-check';
import * as t from 'io-ts';
import {
  boundedString,
  distinctList,
  fieldError,
  maxListedFieldErrors,
  shaped,
  toFieldErrors,
  type ShapedCodec,
  validationFailed,
} from '../src/index.js';
import { leftOf, rightOf } from '../test-support/mothers.js';

// The list codec's cost (contract §11): a list longer than its bound is refused by its length
// before any item is read, and a list within it is read once, repeats found with a set. Before
// this, repeats were found with `includes` per item: 110,000 tags held the event loop 18.5 s.

/** An item codec that counts how often an item is read. */
const countingItem = (): { codec: ShapedCodec<string>; reads: () => number } => {
  let reads = 0;
  const inner = boundedString('tag', { min: 1, max: 5 });
  const codec = new t.Type<string, string, unknown>(
    'tag',
    inner.is,
    (u, c) => {
      reads += 1;
      return inner.validate(u, c);
    },
    t.identity,
  );
  return { codec: shaped(codec, inner.shape), reads: () => reads };
};

const items = fc.array(fc.oneof(fc.constantFrom('a', 'b', 'c', 'dd'), fc.string({ maxLength: 7 }), fc.integer()), {
  maxLength: 300,
});

describe('domain: the list codec reads at most its bound of items, each once (property)', () => {
  it('a list past the bound reads no item and answers one error naming its length', () => {
    fc.assert(
      fc.property(items, fc.integer({ min: 0, max: 200 }), (list, max) => {
        const { codec, reads } = countingItem();
        const decoded = distinctList('list', codec, max).decode(list);
        if (list.length > max) {
          expect(reads()).to.equal(0);
          expect(toFieldErrors(leftOf(decoded))).to.deep.equal([
            { field: '', code: 'invalid_length', message: `must hold at most ${max} values (got ${list.length})` },
          ]);
        } else expect(reads()).to.equal(list.length);
      }),
      { numRuns: 300 },
    );
  });

  it('a list within the bound keeps the first of each value, in order, or names each bad item', () => {
    fc.assert(
      fc.property(items, (list) => {
        const { codec } = countingItem();
        const decoded = distinctList('list', codec, 300).decode(list);
        const bad = list.flatMap((x, i) => (codec.is(x) ? [] : [String(i)]));
        if (bad.length > 0) expect(toFieldErrors(leftOf(decoded)).map((e) => e.field)).to.deep.equal(bad);
        else expect(rightOf(decoded)).to.deep.equal(list.filter((x, i) => list.indexOf(x) === i));
      }),
      { numRuns: 300 },
    );
  });

  it('takes linear time: 200,000 distinct items within a bound that large decode in well under a second', function () {
    // The quadratic check took ~20 s for this; the linear one ~30 ms on a quiet machine.
    // Under mutation testing (Stryker's instrumented code, global `__stryker__`) every statement
    // also records coverage, so the time is the instrumentation's (1.8 s seen at load 8), not the
    // codec's: skipped there (no mutant makes the set a list), run by `pnpm test`.
    if ('__stryker__' in globalThis) this.skip();
    const many = Array.from({ length: 200_000 }, (_, i) => `t${i}`);
    const codec = distinctList('list', boundedString('tag', { min: 1, max: 10 }), many.length);
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      expect(rightOf(codec.decode(many))).to.have.length(many.length);
      best = Math.min(best, performance.now() - started);
    }
    expect(best).to.be.below(1000);
  });
});

describe('domain: a validation failure lists at most 100 errors and counts the rest (property)', () => {
  it('lists the first errors and says how many more there are', () => {
    fc.assert(
      fc.property(fc.nat(400), fc.nat(1000), (n, alreadyOmitted) => {
        const errors = Array.from({ length: n }, (_, i) => fieldError(`f${i}`, 'unknown_field', 'is not a field'));
        const e = validationFailed(errors, alreadyOmitted);
        if (e._tag !== 'ValidationFailed') throw new Error('not a validation failure');
        expect(e.errors).to.deep.equal(errors.slice(0, maxListedFieldErrors));
        expect(e.errors.length + (e.omitted ?? 0)).to.equal(n + alreadyOmitted);
        expect(e.omitted === undefined || e.omitted > 0).to.equal(true);
      }),
    );
  });
});
