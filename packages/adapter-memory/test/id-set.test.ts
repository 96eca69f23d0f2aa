import { expect } from 'chai';
import fc from 'fast-check';
import { countBits, IdSet } from '../src/tickets/id-set.js';

// The queue sets switch between a hash set and a bitset by density (at 1,024 members and one
// member per 256 ids, back below a quarter of that): whatever the writes, a set answers as
// the plain Set of the same writes, in both forms and across the switches.

const ids = (s: IdSet): number[] => {
  const out: number[] = [];
  s.forEachSlice((values, start, end) => {
    for (let k = start; k < end; k++) out.push(values[k] as number);
  });
  return out.sort((a, b) => a - b);
};

describe('IdSet (queue sets of the memory store)', () => {
  it('answers as a Set of the same adds and deletes, dense or sparse', () => {
    const op = fc.oneof(
      fc.record({
        add: fc.constant(true),
        from: fc.integer({ min: 1, max: 9000 }),
        n: fc.integer({ min: 1, max: 1500 }),
      }),
      fc.record({
        add: fc.constant(false),
        from: fc.integer({ min: 1, max: 9000 }),
        n: fc.integer({ min: 1, max: 1500 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 8 }), fc.boolean(), (ops, alwaysDense) => {
        const set = new IdSet(alwaysDense);
        const model = new Set<number>();
        for (const o of ops) {
          for (let id = o.from; id < o.from + o.n; id++) {
            if (o.add) {
              set.add(id);
              model.add(id);
            } else {
              set.delete(id);
              model.delete(id);
            }
          }
          expect(set.size).to.equal(model.size);
        }
        expect(ids(set)).to.deep.equal([...model].sort((a, b) => a - b));
        for (const probe of [0, 1, 4500, 9000, 10_499, 20_000]) expect(set.has(probe)).to.equal(model.has(probe));
        const bits = new Uint32Array((set.reach() >>> 5) + 1);
        set.orInto(bits);
        expect(countBits(bits)).to.equal(model.size);
        if (alwaysDense) expect(set.denseBits()).to.not.equal(null);
      }),
      { numRuns: 60 },
    );
  });

  it('turns into a bitset when dense and back into a hash set when sparse again', () => {
    const set = new IdSet();
    for (let id = 1; id <= 2000; id++) set.add(id);
    expect(set.denseBits()).to.not.equal(null);
    for (let id = 1; id <= 1000; id++) set.delete(id);
    expect(set.denseBits(), '1,000 ids in 2,000').to.not.equal(null);
    for (let id = 1001; id <= 1999; id++) set.delete(id);
    expect(set.denseBits(), 'one id in 2,000').to.equal(null);
    expect(ids(set)).to.deep.equal([2000]);
  });
});
