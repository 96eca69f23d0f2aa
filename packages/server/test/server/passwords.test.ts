import { expect } from 'chai';
import { PasswordHasherBusyError } from '@support/application';
import { argon2Hasher, defaultArgon2, semaphore } from '../../src/index.js';

const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('server: argon2id password hashing', () => {
  // The production settings once (so the defaults are known to work), cheap ones elsewhere.
  const hasher = argon2Hasher();
  const cheap = argon2Hasher({ memoryCost: 1024, timeCost: 1, concurrency: 2, maxWaiting: 64 });

  it('uses at least the OWASP minimum for argon2id by default', () => {
    expect(defaultArgon2.memoryCost).to.be.at.least(19_456);
    expect(defaultArgon2.timeCost).to.be.at.least(2);
    expect(defaultArgon2.concurrency).to.be.at.least(1);
  });

  it('produces an argon2id hash with the configured parameters that verifies the right password only', async () => {
    const hash = await hasher.hash('correct horse battery staple');
    expect(hash).to.match(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(hash).not.to.include('correct horse');
    expect(await hasher.verify(hash, 'correct horse battery staple')).to.equal(true);
    expect(await hasher.verify(hash, 'correct horse battery stapler')).to.equal(false);
    expect(await hasher.verify(hash, '')).to.equal(false);
  });

  it('salts: the same password hashes differently each time, and both verify', async () => {
    const [a, b] = await Promise.all([cheap.hash('same password'), cheap.hash('same password')]);
    expect(a).to.match(/^\$argon2id\$/);
    expect(a).not.to.equal(b);
    expect(await cheap.verify(a, 'same password')).to.equal(true);
    expect(await cheap.verify(b, 'same password')).to.equal(true);
  });

  it('handles passwords beyond ASCII', async () => {
    const hash = await cheap.hash('pässwörd-日本語-🔑');
    expect(await cheap.verify(hash, 'pässwörd-日本語-🔑')).to.equal(true);
    expect(await cheap.verify(hash, 'passwörd-日本語-🔑')).to.equal(false);
  });

  it('answers false, without throwing, for a malformed or foreign stored hash', async () => {
    for (const stored of [
      '',
      'not a hash',
      '$argon2id$',
      '$argon2id$v=19$m=1024,t=1,p=1$c2FsdA$',
      'test$cGFzc3dvcmQ=',
      '$2b$10$abcdefghijklmnopqrstuuQWERTYUIOPASDFGHJKLZXCVBNMqwerty',
    ]) {
      expect(await cheap.verify(stored, 'password'), JSON.stringify(stored)).to.equal(false);
    }
  });
});

describe('server: semaphore (bounded concurrency)', () => {
  it('never runs more than n at once, and runs everything', async () => {
    for (const limit of [1, 2, 3]) {
      const run = semaphore(limit);
      let running = 0;
      let peak = 0;
      let done = 0;
      const work = async (i: number): Promise<number> => {
        running += 1;
        peak = Math.max(peak, running);
        expect(running, `limit ${limit}`).to.be.at.most(limit);
        await tick(i % 3);
        running -= 1;
        done += 1;
        return i;
      };
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => run(() => work(i))));
      expect(results).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
      expect(peak, `limit ${limit}`).to.equal(limit);
      expect(done).to.equal(20);
      expect(running).to.equal(0);
    }
  });

  it('starts waiting work in arrival order', async () => {
    const run = semaphore(1);
    const started: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        run(async () => {
          started.push(i);
          await tick(5 - i);
        }),
      ),
    );
    expect(started).to.deep.equal([0, 1, 2, 3, 4]);
  });

  it('frees its slot when the work fails, and passes the failure on', async () => {
    const run = semaphore(1);
    let running = 0;
    let peak = 0;
    const outcomes = await Promise.allSettled(
      [0, 1, 2, 3].map((i) =>
        run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await tick(1);
          running -= 1;
          if (i % 2 === 0) throw new Error(`boom ${i}`);
          return i;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect(peak).to.equal(1);
    // Still usable afterwards: the failed work gave its slot back.
    expect(await run(() => Promise.resolve('after'))).to.equal('after');
  });

  it('bounds the real hasher: with concurrency 1 argon2 calls do not overlap', async () => {
    // Measured from outside: verifying a malformed hash takes no time, so unbounded it would
    // finish before the hash started first; bounded to 1 it waits its turn.
    const order: string[] = [];
    const hasher = argon2Hasher({ memoryCost: 1024, timeCost: 1, concurrency: 1, maxWaiting: 64 });
    await Promise.all([
      hasher.hash('first password').then(() => order.push('first')),
      hasher.verify('not a hash', 'x').then(() => order.push('second')),
      hasher.hash('third password').then(() => order.push('third')),
    ]);
    expect(order).to.deep.equal(['first', 'second', 'third']);
  });

  it('refuses one past its queue at once (PasswordHasherBusyError), and serves again when it drains', async () => {
    const run = semaphore(1, 2);
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = [run(() => gate), run(() => Promise.resolve('a')), run(() => Promise.resolve('b'))];
    const started = Date.now();
    let refused: unknown = null;
    await run(() => Promise.resolve('c')).catch((e: unknown) => {
      refused = e;
    });
    expect(refused).to.be.instanceOf(PasswordHasherBusyError);
    expect(Date.now() - started, 'refused without waiting').to.be.below(100);
    release();
    await Promise.all(held);
    expect(await run(() => Promise.resolve('after'))).to.equal('after');
    expect(defaultArgon2.maxWaiting).to.be.within(1, 1000);
  });
});
