import { expect } from 'chai';
import { BigMap } from '../src/big-map.js';

// The tables' maps hold more ids than one V8 Map can (2^24 entries): numeric keys are spread
// over inner maps by range. Map semantics hold across the ranges.

describe('BigMap', () => {
  const far = [0, 1, 2 ** 22 - 1, 2 ** 22, 2 ** 24 + 5, 3 * 2 ** 24, 2 ** 40];

  it('gets, has, sets, deletes and counts keys of every range, iterating range by range', () => {
    const m = new BigMap<number, string>();
    for (const k of far) m.set(k, `v${String(k)}`);
    m.set('name' as unknown as number, 'text key');
    expect(m.size).to.equal(far.length + 1);
    for (const k of far) {
      expect(m.has(k)).to.equal(true);
      expect(m.get(k)).to.equal(`v${String(k)}`);
    }
    expect(m.get(7)).to.equal(undefined);
    expect(m.has(2 ** 30)).to.equal(false);
    expect([...m.keys()]).to.deep.equal([0, 1, 2 ** 22 - 1, 'name', 2 ** 22, 2 ** 24 + 5, 3 * 2 ** 24, 2 ** 40]);
    expect(m.delete(2 ** 24 + 5)).to.equal(true);
    expect(m.delete(2 ** 24 + 5)).to.equal(false);
    expect(m.delete(2 ** 33)).to.equal(false);
    expect(m.size).to.equal(far.length);
    const seen: number[] = [];
    m.forEach((_, k) => seen.push(k));
    expect(seen).to.deep.equal([...m.keys()]);
    expect([...m.values()]).to.have.length(far.length);
    m.clear();
    expect(m.size).to.equal(0);
  });
});
