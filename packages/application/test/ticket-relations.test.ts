import { expect } from 'chai';
import { decoded, embed, rightOf, ticketQuery, world } from './support/world.js';

// A ticket's related resources (`embed`): whole for staff, by id and name to a customer
// (themself whole), null where the ticket links to nothing, loaded in one batch per kind for
// a whole page; and the states the caller may move it to.

describe('ticket relations', () => {
  it('staff see related users and the group whole; a customer sees themself whole, others by id and name', async () => {
    const w = await world();
    const alice = await w.customer('Alice');
    const agent = await w.agent('Agent Smith');
    const group = rightOf(await w.app.groups.create(w.admin, decoded({ name: 'Tier 2', description: 'escalations' })));
    const id = await w.ticket(alice, { assignedUserId: agent.user.id, groupId: group.id });
    const all = embed('customer', 'assignedUser', 'group');
    const staffView = rightOf(await w.app.tickets.get(w.admin, id, all)).related;
    expect(staffView.customer).to.deep.include({ kind: 'full' });
    expect(staffView.assignedUser).to.deep.equal({
      kind: 'full',
      value: rightOf(await w.app.users.get(w.admin, agent.user.id)),
    });
    expect(staffView.group).to.deep.equal({ kind: 'full', value: group });
    const own = rightOf(await w.app.tickets.get(alice, id, all)).related;
    expect(own.customer?.kind).to.equal('full');
    expect(own.assignedUser).to.deep.equal({ kind: 'limited', id: agent.user.id, name: 'Agent Smith' });
    expect(own.group).to.deep.equal({ kind: 'limited', id: group.id, name: 'Tier 2' });
    expect(
      rightOf(await w.app.tickets.get(alice, id, embed('group'))).related,
      'only what was asked for',
    ).to.deep.equal({
      group: { kind: 'limited', id: group.id, name: 'Tier 2' },
    });
  });

  it('a link to nothing is null; nothing asked for is no relation and no lookup', async () => {
    const w = await world();
    const alice = await w.customer();
    const id = await w.ticket(alice);
    expect(rightOf(await w.app.tickets.get(w.admin, id, embed('assignedUser', 'group'))).related).to.deep.equal({
      assignedUser: null,
      group: null,
    });
    let lookups = 0;
    const { users, groups } = w.ports;
    const [findUsers, findGroups] = [users.findByIds.bind(users), groups.findByIds.bind(groups)];
    users.findByIds = (ids) => {
      lookups += 1;
      return findUsers(ids);
    };
    groups.findByIds = (ids) => {
      lookups += 1;
      return findGroups(ids);
    };
    expect(rightOf(await w.app.tickets.get(w.admin, id, embed())).related).to.deep.equal({});
    expect(rightOf(await w.app.tickets.get(w.admin, id, embed('assignedUser', 'group'))).related).to.deep.equal({
      assignedUser: null,
      group: null,
    });
    expect(lookups, 'no id to look up: no batch').to.equal(0);
  });

  it('a page of tickets loads each kind of relation in one batch', async () => {
    const w = await world();
    const [alice, bob] = [await w.customer(), await w.customer()];
    const agent = await w.agent();
    const group = rightOf(await w.app.groups.create(w.admin, decoded({ name: 'G' })));
    for (const c of [alice, bob, alice]) await w.ticket(c, { assignedUserId: agent.user.id, groupId: group.id });
    const calls: number[][] = [];
    const { users, groups } = w.ports;
    const [findUsers, findGroups] = [users.findByIds.bind(users), groups.findByIds.bind(groups)];
    users.findByIds = (ids) => {
      calls.push([...ids]);
      return findUsers(ids);
    };
    groups.findByIds = (ids) => {
      calls.push([...ids]);
      return findGroups(ids);
    };
    const list = rightOf(
      await w.app.tickets.list(w.admin, ticketQuery({ embed: ['customer', 'assignedUser', 'group'] })),
    );
    expect(list.items).to.have.length(3);
    expect(calls).to.have.length(2);
    expect(calls[0]).to.have.members([alice.user.id, bob.user.id, agent.user.id]);
    expect(calls[1]).to.deep.equal([group.id]);
    expect(
      list.items.map((v) => (v.related.customer?.kind === 'full' ? v.related.customer.value.id : null)),
    ).to.have.members([alice.user.id, bob.user.id, alice.user.id]);
  });

  it('names the states the caller may move the ticket to, none once deleted', async () => {
    const w = await world();
    const alice = await w.customer();
    const id = await w.ticket(alice);
    expect(rightOf(await w.app.tickets.get(alice, id, embed())).allowedTransitions).to.deep.equal(['closed']);
    expect(rightOf(await w.app.tickets.get(w.admin, id, embed())).allowedTransitions).to.have.members([
      'pending',
      'closed',
    ]);
    expect(rightOf(await w.app.tickets.delete(w.admin, id)).allowedTransitions).to.deep.equal([]);
  });
});
