import { expect } from 'chai';
import { StoreTimeLimitError, StoreUnavailableError, StoreWriteNotConfirmedError } from '../src/index.js';
import { world } from './support/world.js';

// The store's failures as the adapters throw them (ports/store-health.ts), and whether the
// store answers (health.ts).

describe('store failures', () => {
  it('each says what failed, by name and message, and keeps its cause', () => {
    const cause = new Error('socket closed');
    const cases: [Error, string, string][] = [
      [new StoreUnavailableError(), 'StoreUnavailableError', 'the data store is unavailable'],
      [new StoreWriteNotConfirmedError(), 'StoreWriteNotConfirmedError', 'the data store could not confirm the write'],
      [new StoreTimeLimitError(), 'StoreTimeLimitError', 'the data store stopped the operation at its time limit'],
    ];
    for (const [e, name, message] of cases) {
      expect(e).to.be.instanceOf(Error);
      expect([e.name, e.message]).to.deep.equal([name, message]);
    }
    const given = new StoreUnavailableError('mongod is down', { cause });
    expect([given.message, given.cause]).to.deep.equal(['mongod is down', cause]);
    expect(new StoreTimeLimitError('slow', { cause }).cause).to.equal(cause);
    expect(new StoreWriteNotConfirmedError('w:majority', { cause }).message).to.equal('w:majority');
  });
});

describe('health', () => {
  it('is ready while the store answers', async () => {
    const w = await world();
    expect(await w.app.health.ready()).to.equal(true);
    w.ports.store.failing = true;
    expect(await w.app.health.ready()).to.equal(false);
  });
});
