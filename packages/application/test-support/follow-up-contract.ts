import {
  leaveGroup,
  renameCustomer,
  unassignTicket,
  ungroupTicket,
  userEvent,
  type EventActor,
  type Ticket,
  type User,
} from '@support/domain';
import { expect } from 'chai';
import type { FollowUp, Store } from '../src/index.js';
import { carryOut } from './follow-up-carrier.js';
import { aGroup, aTicket, aTokenRecord, aUser, groupId, hours, minutes, T0, ticketId, userId } from './mothers.js';
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

    // What each op reaches, and what it leaves alone, run through carryOut (follow-up-carrier.ts).
    describe('what each op reaches', () => {
      const at = T0 + minutes(5);
      const unchanged = async (ts: readonly Ticket[]): Promise<void> => {
        for (const t of ts) expect(await store().tickets.findById(t.id), `ticket ${t.id}`).to.deep.equal(t);
      };

      it("renameCustomer: every ticket of the customer, closed and deleted ones too, not one already carrying the name, nor another customer's; run again, it changes nothing", async () => {
        const theirs = [
          aTicket({ id: 1, customerId: 1, customerName: 'Ada Lovelace', version: 1 }),
          aTicket({ id: 2, customerId: 1, customerName: 'Ada Lovelace', state: 'closed', closedAt: T0, version: 4 }),
          aTicket({ id: 3, customerId: 1, customerName: 'Ada Lovelace', deletedAt: T0, version: 2 }),
        ];
        const others = [
          aTicket({ id: 4, customerId: 1, customerName: 'Ada King', version: 3 }),
          aTicket({ id: 5, customerId: 2, customerName: 'Ada Lovelace' }),
        ];
        for (const t of [...theirs, ...others]) await store().tickets.insert(t);
        const rename = (now: number): FollowUp => ({
          op: 'renameCustomer',
          customerId: userId(1),
          name: 'Ada King',
          version: 2,
          now,
        });
        await carryOut(store(), [rename(at)], at);
        for (const t of theirs)
          expect(await store().tickets.findById(t.id)).to.deep.equal(renameCustomer(t, 'Ada King', at));
        await unchanged(others);
        await carryOut(store(), [rename(at + minutes(1))], at + minutes(1));
        await unchanged([...theirs.map((t) => renameCustomer(t, 'Ada King', at)), ...others]);
      });

      it("unassignUser and clearGroup: every ticket of that user or group, deleted ones too, none of another's or of nobody; ops for nobody change nothing", async () => {
        const assigned = [
          aTicket({ id: 1, assignedUserId: 7 }),
          aTicket({ id: 2, assignedUserId: 7, groupId: 3, version: 5 }),
        ];
        const inGroup = [
          aTicket({ id: 3, groupId: 3, assignedUserId: 8, deletedAt: T0, version: 2 }),
          aTicket({ id: 4, groupId: 3 }),
        ];
        const others = [
          aTicket({ id: 5, assignedUserId: 8, groupId: 4 }),
          aTicket({ id: 6, assignedUserId: null, groupId: null }),
        ];
        for (const t of [...assigned, ...inGroup, ...others]) await store().tickets.insert(t);
        await carryOut(store(), [{ op: 'unassignUser', userId: userId(7), now: at }], at);
        for (const t of assigned) expect(await store().tickets.findById(t.id)).to.deep.equal(unassignTicket(t, at));
        await unchanged([...inGroup, ...others]);
        const later = at + minutes(1);
        await carryOut(store(), [{ op: 'clearGroup', groupId: groupId(3), now: later }], later);
        const afterBoth = [
          ungroupTicket(unassignTicket(assigned[1] as Ticket, at), later),
          ...inGroup.map((t) => ungroupTicket(t, later)),
        ];
        for (const t of afterBoth) expect(await store().tickets.findById(t.id)).to.deep.equal(t);
        const nobody: FollowUp[] = [
          { op: 'renameCustomer', customerId: userId(99), name: 'Nobody', version: 1, now: later },
          { op: 'unassignUser', userId: userId(99), now: later },
          { op: 'clearGroup', groupId: groupId(99), now: later },
        ];
        await carryOut(store(), nobody, later);
        await unchanged([unassignTicket(assigned[0] as Ticket, at), ...afterBoth, ...others]);
      });

      it('removeGroup: every member leaves the group, moving updated_at and the version; other users stay as they are', async () => {
        const members = [
          aUser({ id: 1, groupIds: [3, 4] }),
          aUser({ id: 2, groupIds: [3], version: 5 }),
          aUser({ id: 5, groupIds: [4, 3], updatedAt: T0 + minutes(10), version: 2 }),
        ];
        const others = [aUser({ id: 3, groupIds: [4] }), aUser({ id: 4, groupIds: [] })];
        for (const u of [...members, ...others]) await store().users.insert(u);
        await carryOut(store(), [{ op: 'removeGroup', groupId: groupId(3), now: at }], at);
        for (const u of members)
          expect(await store().users.findById(u.id)).to.deep.equal(leaveGroup(u, groupId(3), at));
        expect((await store().users.findById(userId(1)))?.updatedAt).to.equal(at);
        for (const u of others) expect(await store().users.findById(u.id)).to.deep.equal(u);
        expect(await store().users.list(groupId(3), 0, 10)).to.deep.equal({ items: [], total: 0 });
        expect((await store().users.list(groupId(4), 0, 10)).items.map((u) => u.id)).to.deep.equal([1, 3, 5]);
      });

      it("revokeUser and revokePersonalTokens: every login token of the user in every family, and every personal token of theirs; no other user's", async () => {
        const now = Date.now();
        const expiresAt = now + hours(1);
        await store().tokens.save(aTokenRecord({ hash: 'u1a', userId: 1, familyId: 'A', expiresAt }));
        await store().tokens.save(aTokenRecord({ hash: 'u1b', userId: 1, familyId: 'B', kind: 'access', expiresAt }));
        await store().tokens.save(aTokenRecord({ hash: 'u2', userId: 2, familyId: 'C', expiresAt }));
        for (const [id, owner] of [
          [1, 1],
          [2, 1],
          [3, 2],
        ] as const)
          await store().personalTokens.insert({
            id,
            userId: userId(owner),
            name: `token ${String(id)}`,
            scopes: ['tickets:read'],
            hash: `hash-${String(id)}`,
            createdAt: now,
            expiresAt,
            lastUsedAt: null,
          });
        await carryOut(store(), [{ op: 'revokeUser', userId: userId(1) }], now);
        for (const hash of ['u1a', 'u1b']) expect(await store().tokens.find(hash, now)).to.equal(null);
        expect(await store().tokens.find('u2', now)).to.deep.equal(
          aTokenRecord({ hash: 'u2', userId: 2, familyId: 'C', expiresAt }),
        );
        expect((await store().personalTokens.list(userId(1), 0, 10)).total, 'login tokens only').to.equal(2);
        await carryOut(store(), [{ op: 'revokePersonalTokens', userId: userId(1) }], now);
        expect(await store().personalTokens.list(userId(1), 0, 10)).to.deep.equal({ items: [], total: 0 });
        expect(await store().personalTokens.findByHash('hash-1', now)).to.equal(null);
        expect((await store().personalTokens.findById(3))?.userId).to.equal(userId(2));
        expect(await store().tokens.find('u2', now), 'personal tokens only').not.to.equal(null);
      });

      it('revokeUser and revokePersonalTokens spare the login, or the personal token, of an own password change', async () => {
        const now = Date.now();
        const expiresAt = now + hours(1);
        await store().tokens.save(aTokenRecord({ hash: 'keep-r', userId: 1, familyId: 'mine', expiresAt }));
        await store().tokens.save(
          aTokenRecord({ hash: 'keep-a', userId: 1, familyId: 'mine', kind: 'access', expiresAt }),
        );
        await store().tokens.save(aTokenRecord({ hash: 'other', userId: 1, familyId: 'theirs', expiresAt }));
        for (const id of [1, 2])
          await store().personalTokens.insert({
            id,
            userId: userId(1),
            name: `token ${String(id)}`,
            scopes: ['tickets:read'],
            hash: `hash-${String(id)}`,
            createdAt: now,
            expiresAt,
            lastUsedAt: null,
          });
        await carryOut(
          store(),
          [
            { op: 'revokeUser', userId: userId(1), exceptFamily: 'mine' },
            { op: 'revokePersonalTokens', userId: userId(1), exceptToken: 2 },
          ],
          now,
        );
        expect(await store().tokens.find('other', now)).to.equal(null);
        expect(await store().tokens.find('keep-r', now)).to.not.equal(null);
        expect(await store().tokens.find('keep-a', now)).to.not.equal(null);
        expect((await store().personalTokens.list(userId(1), 0, 10)).items.map((t) => t.id)).to.deep.equal([2]);
      });
    });
  });
}
