import { expect } from 'chai';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

/** The StoreHealth port's promise on a healthy store (see its doc comment). */
export function describeStoreHealthContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: StoreHealth contract`, () => {
    const store = freshStorePerTest(makeStore);

    it('answers true while the store answers', async () => {
      expect(await store().health.ping()).to.equal(true);
      await store().ids.next('tickets');
      expect(await store().health.ping()).to.equal(true);
    });
  });
}
