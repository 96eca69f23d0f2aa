import { aTicket } from '@support/application/testing';
import { expect } from 'chai';
import { MetaFlushes } from '../src/meta-flushes.js';
import { CommitFailedError } from '../src/index.js';
import { settlesWithin } from './settles.js';
import { startedStore, tempDirEachTest } from './temp-store.js';

// A commit leaves its meta page unflushed (MDB_NOMETASYNC); a call is answered only once a
// later flush made its transaction durable: the next commit's, or one asked for when nothing
// more is on its way to the disk. A power cut cannot be made here, so these tests hold that
// flush back (or fail it) and watch what the callers see.

/** A fake environment: the test says which transaction is the newest and settles each flush. */
const fakeEnvironment = () => {
  const flushes: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const env = {
    newest: 1,
    lastTxnId: () => env.newest,
    sync: () =>
      new Promise<void>((resolve, reject) => {
        flushes.push({ resolve, reject });
      }),
  };
  return { env, flushes };
};

describe('MetaFlushes', () => {
  it("a later transaction's commit makes the earlier ones durable, not its own", async () => {
    const { env, flushes } = fakeEnvironment();
    const f = new MetaFlushes(env);
    env.newest = 5;
    const first = f.durable();
    env.newest = 6;
    const second = f.durable();
    f.committed();
    expect(await settlesWithin(first, 20)).to.equal(true);
    expect(await settlesWithin(second, 20)).to.equal(false);
    env.newest = 7;
    f.committed();
    expect(await settlesWithin(second, 20)).to.equal(true);
    expect(flushes).to.have.length(0);
  });

  it('a commit learnt again without a newer transaction releases nothing', async () => {
    const { env } = fakeEnvironment();
    const f = new MetaFlushes(env);
    env.newest = 3;
    const call = f.durable();
    f.committed();
    f.committed();
    expect(await settlesWithin(call, 20)).to.equal(false);
  });

  it('idle flushes once for every call waiting; a call that came during that flush waits for the next one', async () => {
    const { env, flushes } = fakeEnvironment();
    const f = new MetaFlushes(env);
    env.newest = 2;
    const a = f.durable();
    const b = f.durable();
    f.idle();
    expect(flushes).to.have.length(1);
    env.newest = 3;
    const c = f.durable();
    f.idle();
    expect(flushes, 'one flush at a time').to.have.length(1);
    flushes[0]?.resolve();
    expect(await settlesWithin(Promise.all([a, b]), 20)).to.equal(true);
    expect(await settlesWithin(c, 20), 'the first flush may have begun before its meta page was written').to.equal(
      false,
    );
    expect(flushes).to.have.length(2);
    flushes[1]?.resolve();
    expect(await settlesWithin(c, 20)).to.equal(true);
  });

  it('idle with nobody waiting asks for no flush', () => {
    const { env, flushes } = fakeEnvironment();
    new MetaFlushes(env).idle();
    expect(flushes).to.have.length(0);
  });

  it('a failed flush fails the calls it was to make durable', async () => {
    const { env, flushes } = fakeEnvironment();
    const f = new MetaFlushes(env);
    const call = f.durable();
    f.idle();
    flushes[0]?.reject(new Error('EIO: flush'));
    const error = await call.then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).to.equal('EIO: flush');
  });
});

describe('Embedded store: a call is answered once its meta page is flushed', function () {
  this.timeout(30_000);
  let dir = '';
  tempDirEachTest((made) => (dir = made));

  it('a lone write, and a read of it, wait for the flush asked for after its commit', async () => {
    let hold: Promise<void> = Promise.resolve();
    let release: () => void = () => undefined;
    let flushes = 0;
    const store = await startedStore(dir, {
      beforeFlush: () => {
        flushes += 1;
        return hold;
      },
    });
    try {
      await store.tickets.insert(aTicket({ id: 1, subject: 'First' }));
      expect(flushes, 'the first write was made durable by a flush of its own').to.equal(1);
      hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      const write = store.tickets.insert(aTicket({ id: 2, subject: 'Held' }));
      const read = store.tickets.findById(2 as never);
      expect(
        await settlesWithin(Promise.race([write, read]), 400),
        'answered before its meta page was flushed',
      ).to.equal(false);
      expect(flushes).to.equal(2);
      release();
      await write;
      expect((await read)?.subject).to.equal('Held');
    } finally {
      release();
      await store.close();
    }
    const reopened = await startedStore(dir);
    try {
      expect((await reopened.tickets.findById(2 as never))?.subject).to.equal('Held');
    } finally {
      await reopened.close();
    }
  });

  it('a failed flush refuses the write it was to make durable, then every call (fail-stop)', async () => {
    let failing = false;
    const failures: Error[] = [];
    const store = await startedStore(dir, {
      beforeFlush: () => (failing ? Promise.reject(new Error('EIO: injected flush')) : Promise.resolve()),
      log: () => undefined,
      onFailure: (cause) => failures.push(cause),
    });
    try {
      await store.tickets.insert(aTicket({ id: 1 }));
      failing = true;
      const refused = await store.tickets.insert(aTicket({ id: 2 })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).to.be.instanceOf(CommitFailedError);
      failing = false;
      const later = await store.tickets.findById(1 as never).then(
        () => null,
        (e: unknown) => e,
      );
      expect(later).to.be.instanceOf(CommitFailedError);
      expect(failures.map((e) => e.message)).to.deep.equal(['commit failed: EIO: injected flush']);
    } finally {
      await store.close();
    }
  });
});
