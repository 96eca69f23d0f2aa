import type { Email } from '@support/domain';
import { expect } from 'chai';
import { world } from './support/world.js';

// The first admin (setup.ts).

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
