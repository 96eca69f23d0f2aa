import { expect } from 'chai';
import fc from 'fast-check';
import { SortedList } from '../src/sorted-list.js';

// A SortedList of ids keeps chunks that a bulk fill or compact made as packed 4-byte arrays,
// made arrays again at their first change. Whatever the mix of fills, compactions, inserts and
// removals, it answers every read as a sorted array of the same values does.

const ascending = (a: number, b: number): number => a - b;

const op = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), id: fc.integer({ min: 0, max: 60 }) }),
  fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 60 }) }),
  fc.record({ kind: fc.constant('compact' as const) }),
);

/** Every read of the list against the model (ascending distinct ids). */
const sameAs = (list: SortedList<number>, model: readonly number[]): void => {
  expect(list.values()).to.deep.equal(model);
  expect(list.size).to.equal(model.length);
  expect(list.first()).to.equal(model[0]);
  model.forEach((id, i) => expect(list.at(i)).to.equal(id));
  const sliced: number[] = [];
  list.scanSlices(1, model.length - 1, (values, start, end) => {
    for (let j = start; j < end; j++) sliced.push(values[j] as number);
  });
  expect(sliced).to.deep.equal(model.slice(1, model.length - 1));
  const backwards: number[] = [];
  list.scan(model.length - 1, -1, (v) => backwards.push(v) > 0);
  expect(backwards).to.deep.equal([...model].reverse());
  const member = list.cursor();
  for (let id = 0; id <= 61; id++) {
    expect(list.has(id)).to.equal(model.includes(id));
    expect(member(id)).to.equal(model.includes(id));
    expect(list.lowerBound((v) => v - id)).to.equal(model.filter((m) => m < id).length);
  }
};

describe('SortedList (ids packed 4 bytes each)', () => {
  it('answers as a sorted array of its values, whatever mix of fills, compactions, inserts and removals', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 60 })),
        fc.array(op, { maxLength: 80 }),
        fc.integer({ min: 2, max: 5 }),
        (filled, ops, load) => {
          const list = new SortedList<number>(ascending, load);
          let model = [...filled].sort(ascending);
          list.fill(model);
          sameAs(list, model);
          for (const o of ops) {
            if (o.kind === 'compact') list.compact();
            else if (o.kind === 'insert') {
              if (model.includes(o.id)) continue;
              list.insert(o.id);
              model = [...model, o.id].sort(ascending);
            } else {
              expect(list.remove(o.id)).to.equal(model.includes(o.id));
              model = model.filter((m) => m !== o.id);
            }
            sameAs(list, model);
          }
        },
      ),
    );
  });

  it('keeps values that are not ids (negative, fractional, past 2^32) as they are', () => {
    for (const odd of [-1, 0.5, 2 ** 32]) {
      const list = new SortedList<number>(ascending, 2);
      list.fill([1, 2, 3, odd].sort(ascending));
      list.compact();
      expect(list.values()).to.deep.equal([1, 2, 3, odd].sort(ascending));
      expect(list.has(odd)).to.equal(true);
    }
  });
});
