import type { GroupId, UserId } from '@support/domain';
import { expect } from 'chai';
import { decoded, email, leftOf, rightOf, world, type World } from './support/world.js';

// What a user's write hands the store to carry out with it (ports/follow-ups.ts), exactly;
// and the refusals of a user's write, word for word.

/** Records the follow-ups of every user update and delete. */
const recording = (w: World): unknown[][] => {
  const seen: unknown[][] = [];
  const users = w.ports.users;
  const [update, remove] = [users.update.bind(users), users.delete.bind(users)];
  users.update = (next, version, actor, followUps) => {
    seen.push((followUps ?? []).map((f) => f.op));
    return update(next, version, actor, followUps);
  };
  users.delete = (id, now, actor, followUps) => {
    seen.push((followUps ?? []).map((f) => f.op));
    return remove(id, now, actor, followUps);
  };
  return seen;
};

describe("a user write's follow-ups", () => {
  it('names exactly what is due: a rename, a role change to customer, any password change', async () => {
    const w = await world();
    const agent = await w.agent('Agent');
    const seen = recording(w);
    rightOf(await w.app.users.patch(w.admin, agent.user.id, decoded({ name: 'Agent Two' })));
    rightOf(await w.app.users.patch(w.admin, agent.user.id, decoded({ role: 'admin' })));
    rightOf(await w.app.users.patch(w.admin, agent.user.id, decoded({ role: 'customer' })));
    rightOf(
      await w.app.users.patch(
        w.admin,
        agent.user.id,
        decoded({ role: 'agent', email: email('agent.two@example.com') }),
      ),
    );
    rightOf(await w.app.users.patch(w.admin, agent.user.id, decoded({ password: 'set by the admin' })));
    rightOf(
      await w.app.users.patch(
        await w.refreshed(agent),
        'me',
        decoded({ password: 'set by themself', currentPassword: 'set by the admin' }),
      ),
    );
    rightOf(await w.app.users.patch(w.admin, agent.user.id, decoded({ name: 'Agent Two' })));
    expect(seen).to.deep.equal([
      ['renameCustomer'],
      [],
      ['unassignUser'],
      [],
      ['revokeUser', 'revokePersonalTokens'],
      ['revokeUser', 'revokePersonalTokens'],
    ]);
    rightOf(await w.app.users.delete(w.admin, agent.user.id));
    expect(seen.at(-1)).to.deep.equal(['revokeUser', 'revokePersonalTokens', 'unassignUser']);
  });

  it('reports every refused field of a change at once, and a race lost to the same e-mail as taken', async () => {
    const w = await world();
    const [alice, bob] = [await w.customer(), await w.customer()];
    const both = leftOf(
      await w.app.users.patch(
        w.admin,
        'me',
        decoded({ role: 'agent', email: bob.user.email, groupIds: [9 as GroupId] }),
      ),
    );
    expect(both).to.deep.equal({
      _tag: 'ValidationFailed',
      errors: [
        { field: 'groupIds', code: 'unknown_reference', message: 'there is no group 9' },
        { field: 'role', code: 'invalid_value', message: 'you cannot change your own role' },
        { field: 'email', code: 'not_unique', message: `${bob.user.email} is already in use by another user` },
      ],
    });
    const users = w.ports.users;
    const update = users.update.bind(users);
    let raced = 0;
    users.update = (next, version, actor, followUps) => {
      raced += 1;
      return raced === 1 ? Promise.resolve('email_taken') : update(next, version, actor, followUps);
    };
    expect(
      leftOf(await w.app.users.patch(w.admin, alice.user.id, decoded({ email: email('free@example.com') }))),
    ).to.deep.equal({
      _tag: 'ValidationFailed',
      errors: [{ field: 'email', code: 'not_unique', message: 'free@example.com is already in use by another user' }],
    });
    users.update = (next, version, actor, followUps) => {
      raced += 1;
      return raced === 2 ? Promise.resolve('version_mismatch') : update(next, version, actor, followUps);
    };
    expect(
      rightOf(await w.app.users.patch(w.admin, alice.user.id, decoded({ name: 'After a lost race' }))).name,
    ).to.equal('After a lost race');
    expect(raced, 'the lost race was tried again').to.equal(3);
  });

  it('words its refusals', async () => {
    const w = await world();
    const [alice, agent] = [await w.customer(), await w.agent()];
    expect(leftOf(await w.app.users.patch(agent, alice.user.id, decoded({ name: 'x' })))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'only admins may change other users',
    });
    expect(leftOf(await w.app.users.delete(agent, alice.user.id))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'agents may not delete users',
    });
    expect(leftOf(await w.app.users.delete(w.admin, w.admin.user.id))).to.deep.equal({
      _tag: 'Conflict',
      message: 'you cannot delete your own account',
    });
    expect(leftOf(await w.app.users.list(alice, { _tag: 'Right', right: { page: 1, perPage: 1 } }))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'customers may not list users',
    });
    expect(
      leftOf(
        await w.app.users.create(agent, decoded({ name: 'x', email: email('x@example.com'), password: 'password!' })),
      ),
    ).to.deep.equal({
      _tag: 'Forbidden',
      message: 'agents may not create users',
    });
    expect(leftOf(await w.app.users.get(w.admin, 999 as UserId))).to.deep.include({
      _tag: 'NotFound',
      resource: 'user',
      id: '999',
    });
    expect(leftOf(await w.app.users.get(alice, agent.user.id))).to.deep.include({
      _tag: 'NotFound',
      resource: 'user',
      id: String(agent.user.id),
    });
    expect(rightOf(await w.app.users.get(alice, alice.user.id))).to.deep.equal(alice.user);
    const users = w.ports.users;
    users.delete = () => Promise.resolve(false);
    expect(leftOf(await w.app.users.delete(w.admin, agent.user.id))).to.deep.include({
      _tag: 'NotFound',
      resource: 'user',
      id: String(agent.user.id),
    });
  });
});
