import type { Email, UserId } from '@support/domain';
import { expect } from 'chai';
import { StoreTimeLimitError, StoreUnavailableError, StoreWriteNotConfirmedError } from '../src/index.js';
import { world } from './support/world.js';

// The small rules: the store's failures as the adapters throw them, the first admin, whose
// counter a request hits, whether the store answers.

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

describe('the first admin', () => {
  it('is an administrator in no group, made once, only after what runs before it', async () => {
    const w = await world();
    const admin = await w.ports.users.findByEmail('admin@example.com');
    expect(admin).to.include({
      name: 'Administrator',
      role: 'admin',
      version: 1,
      passwordHash: 'hashed:admin-password',
    });
    expect(admin?.groupIds).to.deep.equal([]);
    let ran = 0;
    expect(
      await w.app.setup.ensureFirstAdmin('second@example.com' as Email, 'pw', () => Promise.resolve(void (ran += 1))),
    ).to.equal(false);
    expect(ran, 'nothing to do: nothing runs before').to.equal(0);
  });

  it('reports false when the store refuses the insert (another process made one first)', async () => {
    const w = await world();
    await w.ports.store.users.delete(w.admin.user.id, w.clock.now(), { type: 'system' }, []);
    const users = w.ports.users;
    users.insert = () => Promise.resolve('email_taken');
    let ran = 0;
    expect(
      await w.app.setup.ensureFirstAdmin('again@example.com' as Email, 'pw', () => Promise.resolve(void (ran += 1))),
    ).to.equal(false);
    expect(ran).to.equal(1);
  });
});

describe('the rate limit counters', () => {
  it('counts each user and each address apart', async () => {
    const w = await world({ rateLimit: 20 });
    const one = { kind: 'user', userId: 1 as UserId } as const;
    for (let i = 0; i < 3; i++) await w.app.rateLimit.consume(one);
    expect((await w.app.rateLimit.consume({ kind: 'user', userId: 2 as UserId })).remaining).to.equal(19);
    expect((await w.app.rateLimit.consume({ kind: 'ip', ip: '1' })).remaining, 'an address is not user 1').to.equal(1);
    expect((await w.app.rateLimit.consume(one)).remaining).to.equal(16);
    expect((await w.app.rateLimit.consume({ kind: 'ip', ip: '2' })).remaining).to.equal(1);
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
