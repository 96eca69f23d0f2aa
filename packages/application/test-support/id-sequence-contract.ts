import { expect } from 'chai';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

/** The IdSequence port's promises (see its doc comment), for any store. */
export function describeIdSequenceContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: IdSequence contract`, () => {
    const store = freshStorePerTest(makeStore);
    const next = (sequence: string) => store().ids.next(sequence);

    it('counts 1, 2, 3 in a named sequence', async () => {
      expect([await next('tickets'), await next('tickets'), await next('tickets')]).to.deep.equal([1, 2, 3]);
    });

    it('keeps each name on its own', async () => {
      expect(await next('tickets')).to.equal(1);
      expect(await next('users')).to.equal(1);
      expect(await next('tickets')).to.equal(2);
      expect(await next('messages:7')).to.equal(1);
      expect(await next('users')).to.equal(2);
    });

    it('never repeats a value: 100 concurrent calls give 1 to 100', async () => {
      const values = await Promise.all(Array.from({ length: 100 }, () => next('tickets')));
      expect([...values].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 100 }, (_, i) => i + 1));
    });
  });
}
