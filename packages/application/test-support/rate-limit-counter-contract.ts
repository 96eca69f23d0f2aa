import { expect } from 'chai';
import { hours } from './mothers.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

/**
 * The RateLimitCounter port's promises (see its doc comments), for any store. Windows lie in
 * the present of real time, because a store may forget a window once it has ended.
 */
export function describeRateLimitCounterContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: RateLimitCounter contract`, () => {
    const store = freshStorePerTest(makeStore);
    const hit = (key: string, windowStart: number, windowMs = hours(1)) =>
      store().rateLimits.hit(key, windowStart, windowMs);

    it('counts 1, 2, 3 for one key in one window', async () => {
      const start = Date.now();
      expect(await hit('user:1', start)).to.equal(1);
      expect(await hit('user:1', start)).to.equal(2);
      expect(await hit('user:1', start)).to.equal(3);
    });

    it('counts each key on its own', async () => {
      const start = Date.now();
      expect(await hit('user:1', start)).to.equal(1);
      expect(await hit('ip:10.0.0.1', start)).to.equal(1);
      expect(await hit('user:1', start)).to.equal(2);
      expect(await hit('user:2', start)).to.equal(1);
      expect(await hit('ip:10.0.0.1', start)).to.equal(2);
    });

    it('counts each window on its own', async () => {
      const start = Date.now();
      expect(await hit('user:1', start)).to.equal(1);
      expect(await hit('user:1', start)).to.equal(2);
      expect(await hit('user:1', start + 1000)).to.equal(1);
      expect(await hit('user:1', start)).to.equal(3);
      expect(await hit('user:1', start + 1000)).to.equal(2);
    });

    it('is atomic: 50 concurrent hits count 1 to 50', async () => {
      const start = Date.now();
      const counts = await Promise.all(Array.from({ length: 50 }, () => hit('user:1', start)));
      expect([...counts].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
    });

    it('tells a count without counting, in this window and the one before', async () => {
      const windowMs = 60_000;
      const start = Math.floor(Date.now() / windowMs) * windowMs;
      expect(await store().rateLimits.count('login:1', start)).to.equal(0);
      await hit('login:1', start - windowMs, windowMs);
      await hit('login:1', start - windowMs, windowMs);
      await hit('login:1', start, windowMs);
      // A hit in the new window does not forget the one before it.
      expect(await store().rateLimits.count('login:1', start - windowMs)).to.equal(2);
      expect(await store().rateLimits.count('login:1', start)).to.equal(1);
      expect(await store().rateLimits.count('login:1', start)).to.equal(1);
      expect(await store().rateLimits.count('login:2', start)).to.equal(0);
    });

    it('starts a new window at 1 after the previous one ended', async () => {
      const windowMs = 60_000;
      const start = Math.floor(Date.now() / windowMs) * windowMs;
      expect(await hit('user:1', start, windowMs)).to.equal(1);
      expect(await hit('user:1', start, windowMs)).to.equal(2);
      expect(await hit('user:1', start + windowMs, windowMs)).to.equal(1);
    });
  });
}
