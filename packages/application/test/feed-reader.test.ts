import { expect } from 'chai';
import { aGroup, readFeedWhileWriting } from '../test-support/index.js';
import { naiveStore } from './support/naive-store.js';

// The feed reader of the EventLog contract and the real-mongod feed suite ends, whatever the
// store does: with the events, with a refused write's cause, or at its time bound.

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('readFeedWhileWriting: a reader that cannot hang', () => {
  it('answers every event once the writes have succeeded and it has reached the newest seq', async () => {
    const store = naiveStore();
    const writes = [1, 2, 3].map((id) => store.groups.insert(aGroup({ id, name: `G${String(id)}` })));
    const seen = await readFeedWhileWriting(store.events, writes, { batch: 2, idle: tick, withinMs: 1000 });
    expect(seen.map((e) => e.seq)).to.deep.equal([1, 2, 3]);
  });

  it('a store that refuses every write: fails at once, the refusal as the cause, instead of polling forever', async () => {
    const store = naiveStore();
    const refusal = new Error('the data store is unavailable');
    const started = Date.now();
    const failed = await readFeedWhileWriting(store.events, [Promise.reject(refusal), Promise.reject(refusal)], {
      batch: 7,
      idle: tick,
      withinMs: 60_000,
    }).catch((e: unknown) => e);
    expect(failed).to.be.instanceOf(Error).with.property('cause', refusal);
    expect((failed as Error).message).to.match(/a write was refused \(0 of 2 had succeeded\)/);
    expect(Date.now() - started).to.be.below(1000);
  });

  it('writes that never settle: fails at the bound, saying how far the reader got', async () => {
    const store = naiveStore();
    await store.groups.insert(aGroup({ id: 1 }));
    const failed = await readFeedWhileWriting(store.events, [new Promise(() => undefined)], {
      batch: 7,
      idle: tick,
      withinMs: 100,
    }).catch((e: unknown) => e);
    expect((failed as Error).message).to.equal('the reader saw 1 events in 100 ms while 0 of 1 writes had succeeded');
  });
});
