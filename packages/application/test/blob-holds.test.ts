import { expect } from 'chai';
import { BlobHolds, PasswordHasherBusyError } from '../src/index.js';

// What every blob store shares: holds that `keep` takes until the record naming the bytes is
// committed, and one lock per key, so that an erasure and a keep of the same bytes never
// interleave (an erasure of bytes a new upload is keeping would lose that upload).

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('blob holds and locks', () => {
  it('runs work on one key one at a time, in the order asked; other keys do not wait', async () => {
    const holds = new BlobHolds();
    const log: string[] = [];
    const work = (name: string, steps: number) => async () => {
      log.push(`${name} starts`);
      for (let i = 0; i < steps; i++) await tick();
      log.push(`${name} ends`);
      return name;
    };
    const results = await Promise.all([
      holds.locked('k', work('a', 3)),
      holds.locked('k', work('b', 1)),
      holds.locked('other', work('c', 1)),
    ]);
    expect(results).to.deep.equal(['a', 'b', 'c']);
    expect(log.indexOf('b starts')).to.be.greaterThan(log.indexOf('a ends'));
    expect(log.indexOf('c ends')).to.be.lessThan(log.indexOf('a ends'));
  });

  it('a failed work frees the lock for the next', async () => {
    const holds = new BlobHolds();
    const failed = holds.locked('k', () => Promise.reject(new Error('disk full')));
    const next = holds.locked('k', () => Promise.resolve('next'));
    let why = '';
    await failed.catch((e: unknown) => (why = String(e)));
    expect([why, await next]).to.deep.equal(['Error: disk full', 'next']);
    expect(await holds.locked('k', () => Promise.resolve('again'))).to.equal('again');
  });

  it('counts holds; each answer releases its own hold once', () => {
    const holds = new BlobHolds();
    const a = holds.hold('k');
    const b = holds.hold('k');
    expect(a.key).to.equal('k');
    expect(holds.isHeld('k')).to.equal(true);
    a.release();
    a.release();
    expect(holds.isHeld('k')).to.equal(true);
    b.release();
    expect([holds.isHeld('k'), holds.isHeld('other')]).to.deep.equal([false, false]);
  });

  it('erases only what no hold and no record names', async () => {
    const holds = new BlobHolds();
    let erased = 0;
    const erase = () => {
      erased += 1;
      return Promise.resolve(true);
    };
    const hold = holds.hold('k');
    expect(await holds.eraseUnlessNamed('k', () => Promise.resolve(false), erase)).to.equal(false);
    hold.release();
    expect(await holds.eraseUnlessNamed('k', () => Promise.resolve(true), erase)).to.equal(false);
    expect(erased).to.equal(0);
    // A hold taken while the records are asked still stops the erasure.
    let late: { release(): void } | null = null;
    const asked = () => {
      late = holds.hold('k');
      return Promise.resolve(false);
    };
    expect(await holds.eraseUnlessNamed('k', asked, erase)).to.equal(false);
    (late as { release(): void } | null)?.release();
    expect(await holds.eraseUnlessNamed('k', () => Promise.resolve(false), erase)).to.equal(true);
    expect(erased).to.equal(1);
  });

  it('a busy password hasher says so by name', () => {
    const e = new PasswordHasherBusyError();
    expect([e.name, e.message]).to.deep.equal(['PasswordHasherBusyError', 'too many password checks are waiting']);
    expect(new PasswordHasherBusyError('queue full', { cause: 'x' })).to.deep.include({
      message: 'queue full',
      cause: 'x',
    });
  });
});
