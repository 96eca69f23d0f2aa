import {
  leaveGroup,
  renameCustomer,
  unassignTicket,
  ungroupTicket,
  userEvent,
  type EventActor,
  type User,
} from '@support/domain';
import { expect } from 'chai';
import type { FollowUp, Store } from '../src/index.js';
import { aGroup, aTicket, aTokenRecord, aUser, groupId, minutes, T0, ticketId, userId } from './mothers.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

// The follow-ups of a user's or group's write (ports/follow-ups.ts): the write's port carries
// them out with it, so once it has answered they are done, with one event per changed live
// record after the write's own; a refused write carries out none. A store that runs them
// apart from the write (MongoDB) proves in its own tests that a failure in between loses none.
// Every event of a write and of its follow-ups carries the write's actor (contract §8.3).

const now = T0 + minutes(5);
/** The admin whose request (made with a personal token) causes the writes. */
const admin: EventActor = { type: 'user', id: userId(1), token: { id: 3, name: 'CRM sync' } };
const customer = aUser({ id: 7, name: 'Ada Lovelace', email: 'ada@example.com', role: 'customer' });
const agent = aUser({ id: 8, email: 'agent@example.com', role: 'agent', groupIds: [groupId(4)] });

/** Tickets 1-2 of customer 7 (1 assigned to agent 8, in group 4), a deleted one of theirs, one of customer 9. */
const seed = async (s: Store): Promise<void> => {
  await s.users.insert(customer);
  await s.users.insert(agent);
  await s.groups.insert(aGroup({ id: 4 }));
  await s.tickets.insert(aTicket({ id: 1, customerId: 7, assignedUserId: 8, groupId: 4 }));
  await s.tickets.insert(aTicket({ id: 2, customerId: 7 }));
  await s.tickets.insert(aTicket({ id: 3, customerId: 7, assignedUserId: 8, groupId: 4, deletedAt: T0 }));
  await s.tickets.insert(aTicket({ id: 4, customerId: 9, customerName: 'Grace Hopper' }));
  await s.tokens.save(aTokenRecord({ hash: 'a'.repeat(64), userId: 8 }));
  await s.personalTokens.insert({
    id: 6,
    userId: userId(8),
    name: 'bot',
    scopes: ['tickets:read'],
    hash: 'b'.repeat(64),
    createdAt: T0,
    expiresAt: T0 + minutes(600),
    lastUsedAt: null,
  });
};

const eventsFrom = async (s: Store, from: number) => [...(await s.events.after(from, 1000))];

/** The follow-up promises of UserRepository.update/delete and GroupRepository.delete, for any store. */
export function describeFollowUpContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: follow-ups of user and group writes`, () => {
    const store = freshStorePerTest(makeStore);

    it("a rename's follow-up: once the update has answered, every ticket of the customer has the name, each with its event after the user's", async () => {
      await seed(store());
      const from = (await store().events.bounds()).newest;
      const renamed: User = { ...customer, name: 'Ada King', updatedAt: now, version: 2 };
      const due: FollowUp[] = [{ op: 'renameCustomer', customerId: userId(7), name: 'Ada King', version: 2, now }];
      expect(await store().users.update(renamed, 1, admin, due)).to.equal('ok');
      const t1 = renameCustomer(aTicket({ id: 1, customerId: 7, assignedUserId: 8, groupId: 4 }), 'Ada King', now);
      expect(await store().tickets.findById(ticketId(1))).to.deep.equal(t1);
      expect((await store().tickets.findById(ticketId(2)))?.customerName).to.equal('Ada King');
      expect((await store().tickets.findById(ticketId(3)))?.customerName, 'a deleted ticket too').to.equal('Ada King');
      expect((await store().tickets.findById(ticketId(4)))?.customerName).to.equal('Grace Hopper');
      const events = await eventsFrom(store(), from);
      expect(events[0]).to.deep.include(userEvent('updated', renamed, now, admin));
      expect(events.slice(1).map((e) => e.subject)).to.have.deep.members([
        { resource: 'ticket', id: ticketId(1) },
        { resource: 'ticket', id: ticketId(2) },
      ]);
      expect(
        events.map((e) => e.actor),
        "the follow-up's events carry the write's actor",
      ).to.deep.equal([admin, admin, admin]);
    });

    it('a refused update (stale version, e-mail taken) carries out none of its follow-ups and records nothing', async () => {
      await seed(store());
      const from = (await store().events.bounds()).newest;
      const due: FollowUp[] = [
        { op: 'renameCustomer', customerId: userId(7), name: 'Ada King', version: 2, now },
        { op: 'unassignUser', userId: userId(7), now },
      ];
      expect(await store().users.update({ ...customer, name: 'Ada King', version: 2 }, 5, admin, due)).to.equal(
        'version_mismatch',
      );
      expect(
        await store().users.update({ ...customer, name: 'Ada King', email: agent.email, version: 2 }, 1, admin, due),
      ).to.equal('email_taken');
      expect((await store().tickets.findById(ticketId(1)))?.customerName).to.equal('Ada Lovelace');
      expect(await eventsFrom(store(), from)).to.deep.equal([]);
    });

    it("a deleted user's follow-ups: their login and personal tokens are revoked and no ticket stays assigned to them; a missing user carries out none", async () => {
      await seed(store());
      const due = (id: number): FollowUp[] => [
        { op: 'revokeUser', userId: userId(id) },
        { op: 'revokePersonalTokens', userId: userId(id) },
        { op: 'unassignUser', userId: userId(id), now },
      ];
      expect(await store().users.delete(userId(99), now, admin, due(8))).to.equal(false);
      expect((await store().tickets.findById(ticketId(1)))?.assignedUserId).to.equal(8);
      expect(await store().tokens.find('a'.repeat(64), T0)).not.to.equal(null);
      expect(await store().personalTokens.findByHash('b'.repeat(64), T0)).not.to.equal(null);
      const from = (await store().events.bounds()).newest;
      expect(await store().users.delete(userId(8), now, admin, due(8))).to.equal(true);
      expect(await store().tokens.find('a'.repeat(64), T0)).to.equal(null);
      expect(await store().personalTokens.findByHash('b'.repeat(64), T0)).to.equal(null);
      expect(await store().tickets.findById(ticketId(1))).to.deep.equal(
        unassignTicket(aTicket({ id: 1, customerId: 7, assignedUserId: 8, groupId: 4 }), now),
      );
      expect((await store().tickets.findById(ticketId(3)))?.assignedUserId, 'a deleted ticket too').to.equal(null);
      expect((await eventsFrom(store(), from)).map((e) => [e.type, e.actor])).to.deep.equal([
        ['user.deleted', admin],
        ['ticket.updated', admin],
      ]);
    });

    it("a deleted group's follow-ups: its members leave it and its tickets lose it; a missing group carries out none", async () => {
      await seed(store());
      const due: FollowUp[] = [
        { op: 'removeGroup', groupId: groupId(4), now },
        { op: 'clearGroup', groupId: groupId(4), now },
      ];
      expect(await store().groups.delete(groupId(5), now, admin, due)).to.equal(false);
      expect((await store().users.findById(userId(8)))?.groupIds).to.deep.equal([4]);
      const from = (await store().events.bounds()).newest;
      expect(await store().groups.delete(groupId(4), now, admin, due)).to.equal(true);
      expect(await store().users.findById(userId(8))).to.deep.equal(leaveGroup(agent, groupId(4), now));
      expect(await store().tickets.findById(ticketId(1))).to.deep.equal(
        ungroupTicket(aTicket({ id: 1, customerId: 7, assignedUserId: 8, groupId: 4 }), now),
      );
      expect((await eventsFrom(store(), from)).map((e) => [e.type, e.actor])).to.deep.equal([
        ['group.deleted', admin],
        ['user.updated', admin],
        ['ticket.updated', admin],
      ]);
    });
  });
}
