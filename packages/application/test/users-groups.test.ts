import type { GroupId } from '@support/domain';
import { expect } from 'chai';
import { decoded, email, embed, leftOf, page, rightOf, world } from './support/world.js';

describe('users', () => {
  it('creates the first admin only when the store is empty', async () => {
    const w = await world();
    expect(await w.app.setup.ensureFirstAdmin('other@example.com' as never, 'whatever-pw')).to.equal(false);
    expect(w.admin.user.role).to.equal('admin');
  });

  it('keeps e-mail addresses unique without regard to case', async () => {
    const w = await world();
    const body = { name: 'Bob', email: email('Bob@Example.com'), password: 'long enough' };
    rightOf(await w.app.users.create(w.admin, decoded(body)));
    const e = leftOf(await w.app.users.create(w.admin, decoded({ ...body, email: email('bob@example.COM') })));
    expect(e._tag === 'ValidationFailed' && e.errors[0]).to.include({ field: 'email', code: 'not_unique' });
    const carol = rightOf(await w.app.users.create(w.admin, decoded({ ...body, email: email('carol@example.com') })));
    const e2 = leftOf(await w.app.users.patch(w.admin, carol.id, decoded({ email: email('BOB@example.com') })));
    expect(e2._tag).to.equal('ValidationFailed');
    expect((await w.ports.users.findById(carol.id))?.email).to.equal('carol@example.com');
  });

  it('stores only a hash of the password', async () => {
    const w = await world();
    const u = rightOf(
      await w.app.users.create(
        w.admin,
        decoded({ name: 'Dan', email: email('dan@example.com'), password: 'correct horse' }),
      ),
    );
    expect(JSON.stringify(u)).not.to.contain('"correct horse"');
    expect(u.passwordHash).to.equal('hashed:correct horse');
  });

  it('applies the role matrix: customers see only themselves, agents read, admins write', async () => {
    const w = await world();
    const [alice, bob, agent] = [await w.customer(), await w.customer(), await w.agent()];
    expect(rightOf(await w.app.users.get(alice, 'me')).id).to.equal(alice.user.id);
    expect(leftOf(await w.app.users.get(alice, bob.user.id))._tag).to.equal('NotFound');
    expect(leftOf(await w.app.users.list(alice, page()))._tag).to.equal('Forbidden');
    expect(rightOf(await w.app.users.list(agent, page())).total).to.equal(4);
    expect(rightOf(await w.app.users.get(agent, bob.user.id)).id).to.equal(bob.user.id);
    expect(
      leftOf(
        await w.app.users.create(agent, decoded({ name: 'x', email: email('x@example.com'), password: 'password' })),
      )._tag,
    ).to.equal('Forbidden');
    expect(leftOf(await w.app.users.patch(agent, bob.user.id, decoded({ name: 'renamed' })))._tag).to.equal(
      'Forbidden',
    );
    expect(leftOf(await w.app.users.patch(alice, bob.user.id, decoded({ name: 'renamed' })))._tag).to.equal('NotFound');
    expect(leftOf(await w.app.users.delete(agent, bob.user.id))._tag).to.equal('Forbidden');
  });

  it('lets anyone change their own name and password, nothing else', async () => {
    const w = await world();
    const alice = await w.customer('Alice');
    const me = rightOf(
      await w.app.users.patch(
        alice,
        'me',
        decoded({ name: 'Alice B', password: 'new password', currentPassword: 'password-1' }),
      ),
    );
    expect(me).to.include({ name: 'Alice B', passwordHash: 'hashed:new password', role: 'customer' });
    expect(leftOf(await w.app.users.patch(alice, 'me', decoded({ role: 'admin' })))._tag).to.equal('Forbidden');
    const fresh = await w.refreshed(alice);
    expect(
      rightOf(await w.app.users.patch(fresh, 'me', decoded({ role: 'customer', email: fresh.user.email }))).version,
      'unchanged values are no change',
    ).to.equal(fresh.user.version);
  });

  it('refuses an admin changing their own role or deleting themselves', async () => {
    const w = await world();
    const e = leftOf(await w.app.users.patch(w.admin, 'me', decoded({ role: 'agent' })));
    expect(e._tag === 'ValidationFailed' && e.errors[0]).to.include({ field: 'role', code: 'invalid_value' });
    expect(leftOf(await w.app.users.delete(w.admin, w.admin.user.id))._tag).to.equal('Conflict');
  });

  it('deleting a user ends their sessions and assignments but keeps their tickets', async () => {
    const w = await world();
    const [alice, agent] = [await w.customer(), await w.agent()];
    const id = await w.ticket(alice, { assignedUserId: agent.user.id });
    const grant = rightOf(await w.app.auth.passwordGrant(agent.user.email, 'password-2'));
    rightOf(await w.app.users.delete(w.admin, agent.user.id));
    expect(leftOf(await w.app.auth.authenticate(grant.accessToken))._tag).to.equal('Unauthenticated');
    expect(rightOf(await w.app.tickets.get(w.admin, id, embed())).ticket.assignedUserId).to.equal(null);
    expect(leftOf(await w.app.users.get(w.admin, agent.user.id))._tag).to.equal('NotFound');
  });

  it('PUT without a password keeps it; role and groups return to their defaults', async () => {
    const w = await world();
    const g = rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Tier 1' })));
    const agent = await w.user('agent', 'Ann', { groupIds: [g.id] });
    const after = rightOf(
      await w.app.users.replace(w.admin, agent.user.id, decoded({ name: 'Ann', email: agent.user.email })),
    );
    expect(after).to.include({ role: 'customer', passwordHash: agent.user.passwordHash });
    expect(after.groupIds).to.deep.equal([]);
  });
});

describe('groups', () => {
  it('customers have no access; agents read; admins write', async () => {
    const w = await world();
    const [alice, agent] = [await w.customer(), await w.agent()];
    const g = rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Billing' })));
    expect(leftOf(await w.app.groups.list(alice, page()))._tag).to.equal('Forbidden');
    expect(leftOf(await w.app.groups.get(alice, g.id))._tag).to.equal('Forbidden');
    expect(rightOf(await w.app.groups.get(agent, g.id)).name).to.equal('Billing');
    expect(leftOf(await w.app.groups.patch(agent, g.id, decoded({ name: 'x' })))._tag).to.equal('Forbidden');
    expect(leftOf(await w.app.groups.create(agent, decoded({ name: 'x' })))._tag).to.equal('Forbidden');
    expect(leftOf(await w.app.groups.get(agent, 99 as GroupId))._tag).to.equal('NotFound');
  });

  it('keeps names unique without regard to case', async () => {
    const w = await world();
    rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Billing' })));
    const e = leftOf(await w.app.groups.create(w.admin, decoded({ name: 'BILLING' })));
    expect(e._tag === 'ValidationFailed' && e.errors[0]).to.include({ field: 'name', code: 'not_unique' });
  });

  it('lists members, and deleting a group frees its members and tickets', async () => {
    const w = await world();
    const g = rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Tier 2', description: 'escalations' })));
    const a1 = await w.user('agent', 'A1', { groupIds: [g.id] });
    await w.user('agent', 'A2');
    const alice = await w.customer();
    const t = await w.ticket(alice, { groupId: g.id });
    expect(rightOf(await w.app.groups.members(a1, g.id, page())).items.map((u) => u.id)).to.deep.equal([a1.user.id]);
    rightOf(await w.app.groups.delete(w.admin, g.id));
    expect((await w.ports.users.findById(a1.user.id))?.groupIds).to.deep.equal([]);
    expect(rightOf(await w.app.tickets.get(w.admin, t, embed())).ticket.groupId).to.equal(null);
  });

  it('refuses unknown groups in groupIds', async () => {
    const w = await world();
    const e = leftOf(
      await w.app.users.create(
        w.admin,
        decoded({ name: 'x', email: email('x@example.com'), password: 'password', groupIds: [42 as GroupId] }),
      ),
    );
    expect(e._tag === 'ValidationFailed' && e.errors[0]).to.include({ field: 'groupIds', code: 'unknown_reference' });
  });
});

describe('users: me', () => {
  it('is the caller, whatever their role', async () => {
    const w = await world();
    const alice = await w.customer();
    expect(rightOf(await w.app.users.me(alice))).to.deep.equal(alice.user);
    expect(rightOf(await w.app.users.me(w.admin)).id).to.equal(w.admin.user.id);
  });
});
