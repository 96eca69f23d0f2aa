import {
  deleteTicket,
  groupEvent,
  leaveGroup,
  messageEvent,
  renameCustomer,
  revise,
  ticketEvent,
  unassignTicket,
  ungroupTicket,
  userEvent,
  type ChangeEvent,
  type EventActor,
} from '@support/domain';
import { getEventListeners } from 'node:events';
import { expect } from 'chai';
import type { FollowUp, Store } from '../src/index.js';
import { readFeedWhileWriting } from './feed-reader.js';
import { carryOut } from './follow-up-carrier.js';
import { aGroup, aMessage, aTicket, aUser, groupId, minutes, T0, ticketId, userId } from './mothers.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

/** The events a store has recorded, without their seqs, oldest first. */
const recorded = async (store: Store, after = 0): Promise<ChangeEvent[]> =>
  (await store.events.after(after, 100)).map(({ seq: _seq, ...change }) => change);

/**
 * The EventLog port's promises (see its doc comments), for any store: every write records its
 * change in the same step (and a refused write none), seqs count 1, 2, 3... with no hole a
 * reader could see fill later, and old events are forgotten from the oldest on.
 */
export function describeEventLogContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: EventLog contract`, () => {
    const store = freshStorePerTest(makeStore);

    it('records ticket writes: created, updated, deleted (without data), each with the ticket as written', async () => {
      const t = aTicket({ id: 1 });
      await store().tickets.insert(t);
      const changed = revise(t, T0 + minutes(1), { subject: 'Printer still on fire' });
      expect(await store().tickets.update(changed, 1)).to.equal(true);
      const deleted = deleteTicket(changed, T0 + minutes(2));
      expect(await store().tickets.update(deleted, 2)).to.equal(true);
      expect(await recorded(store())).to.deep.equal([
        ticketEvent('created', t, t.updatedAt),
        ticketEvent('updated', changed, changed.updatedAt),
        {
          type: 'ticket.deleted',
          subject: { resource: 'ticket', id: 1 },
          actor: { type: 'system' },
          occurredAt: deleted.updatedAt,
          data: null,
        },
      ]);
    });

    it('records nothing for a refused write', async () => {
      await store().tickets.insert(aTicket({ id: 1 }));
      await store().users.insert(aUser({ id: 1, email: 'ada@example.com' }));
      await store().users.insert(aUser({ id: 2, email: 'bob@example.com' }));
      await store().groups.insert(aGroup({ id: 1, name: 'Billing' }));
      const before = (await store().events.bounds()).newest;
      expect(await store().tickets.update(aTicket({ id: 1, subject: 'x', version: 2 }), 7)).to.equal(false);
      expect(await store().users.update(aUser({ id: 2, email: 'ADA@example.com', version: 2 }), 1)).to.equal(
        'email_taken',
      );
      expect(await store().users.insert(aUser({ id: 3, email: 'bob@example.com' }))).to.equal('email_taken');
      expect(await store().groups.insert(aGroup({ id: 2, name: 'billing' }))).to.equal('name_taken');
      expect(await store().users.delete(userId(9), T0)).to.equal(false);
      expect(await store().groups.delete(groupId(9), T0)).to.equal(false);
      expect((await store().events.bounds()).newest).to.equal(before);
      expect(await store().events.after(before, 100)).to.deep.equal([]);
    });

    it('records messages, users and groups: created, updated, deleted; a user without the password hash', async () => {
      const m = aMessage({ ticketId: 1, number: 1 });
      await store().messages.insert(m);
      const edited = revise(m, T0 + minutes(1), { body: 'Edited' });
      await store().messages.update(edited, 1);
      const u = aUser({ id: 5, email: 'eve@example.com', passwordHash: 'argon2id$secret' });
      await store().users.insert(u);
      const g = aGroup({ id: 3 });
      await store().groups.insert(g);
      await store().users.delete(userId(5), T0 + minutes(3));
      await store().groups.delete(groupId(3), T0 + minutes(4));
      const events = await recorded(store());
      expect(events).to.deep.equal([
        messageEvent('created', m, m.updatedAt),
        messageEvent('updated', edited, edited.updatedAt),
        userEvent('created', u, u.updatedAt),
        groupEvent('created', g, g.updatedAt),
        {
          type: 'user.deleted',
          subject: { resource: 'user', id: 5 },
          actor: { type: 'system' },
          occurredAt: T0 + minutes(3),
          data: null,
        },
        {
          type: 'group.deleted',
          subject: { resource: 'group', id: 3 },
          actor: { type: 'system' },
          occurredAt: T0 + minutes(4),
          data: null,
        },
      ]);
      expect(JSON.stringify(events)).not.to.include('argon2id$secret');
    });

    it('records a change through a reference once for each live resource it changed', async () => {
      await store().tickets.insert(aTicket({ id: 1, customerId: 7, assignedUserId: 8, groupId: 4 }));
      await store().tickets.insert(aTicket({ id: 2, customerId: 7 }));
      await store().tickets.insert(deleteTicket(aTicket({ id: 3, customerId: 7, assignedUserId: 8, groupId: 4 }), T0));
      await store().tickets.insert(aTicket({ id: 4, customerId: 9 }));
      await store().users.insert(aUser({ id: 10, email: 'm1@example.com', groupIds: [groupId(4)] }));
      await store().users.insert(aUser({ id: 11, email: 'm2@example.com', groupIds: [] }));
      const now = T0 + minutes(5);
      const from = (await store().events.bounds()).newest;
      // The follow-ups of a rename, a deleted agent and a deleted group, each with its write's own event.
      await carryOut(
        store(),
        [
          { op: 'renameCustomer', customerId: userId(7), name: 'Ada King', version: 2, now },
          { op: 'unassignUser', userId: userId(8), now },
          { op: 'clearGroup', groupId: groupId(4), now },
          { op: 'removeGroup', groupId: groupId(4), now },
        ],
        now,
      );
      const renamed1 = renameCustomer(
        aTicket({ id: 1, customerId: 7, assignedUserId: 8, groupId: 4 }),
        'Ada King',
        now,
      );
      const renamed2 = renameCustomer(aTicket({ id: 2, customerId: 7 }), 'Ada King', now);
      const unassigned = unassignTicket(renamed1, now);
      const ungrouped = ungroupTicket(unassigned, now);
      const events = (await recorded(store(), from)).slice(2); // after the carrier's user.created and user.deleted
      const byKind = (type: string) => events.filter((e) => e.type === type);
      expect(byKind('ticket.updated').map((e) => e.data)).to.deep.include.members([
        { resource: 'ticket', ticket: renamed2 },
        { resource: 'ticket', ticket: ungrouped },
      ]);
      // Ticket 1 changed three times (rename, unassign, ungroup), ticket 2 once, the deleted ticket 3 never.
      expect(byKind('ticket.updated').map((e) => e.subject)).to.have.deep.members([
        { resource: 'ticket', id: ticketId(1) },
        { resource: 'ticket', id: ticketId(2) },
        { resource: 'ticket', id: ticketId(1) },
        { resource: 'ticket', id: ticketId(1) },
      ]);
      expect(byKind('user.updated')).to.deep.equal([
        userEvent(
          'updated',
          leaveGroup(aUser({ id: 10, email: 'm1@example.com', groupIds: [groupId(4)] }), groupId(4), now),
          now,
        ),
      ]);
      expect(events).to.have.length(5);
    });

    it("records who made each change, a change through a reference included, and lists one actor's changes by seq", async () => {
      const ada: EventActor = { type: 'user', id: userId(1) };
      const bot: EventActor = { type: 'user', id: userId(2), token: { id: 5, name: 'CRM sync' } };
      await store().users.insert(aUser({ id: 7, email: 'c@example.com' }), ada); // 1
      await store().tickets.insert(aTicket({ id: 1, customerId: 7 }), bot); // 2
      await store().groups.insert(aGroup({ id: 4, name: 'Billing' })); // 3: the service's own
      await store().messages.insert(aMessage({ ticketId: 1, number: 1 }), bot); // 4
      const rename: FollowUp = { op: 'renameCustomer', customerId: userId(7), name: 'Ada King', version: 2, now: T0 };
      const renamed = { ...aUser({ id: 7, email: 'c@example.com' }), name: 'Ada King', version: 2 };
      expect(await store().users.update(renamed, 1, ada, [rename])).to.equal('ok'); // 5, and 6: ticket 1 renamed
      await store().groups.delete(groupId(4), T0 + minutes(2), bot); // 7
      const all = await store().events.after(0, 100);
      expect(all.map((e) => [e.seq, e.type, e.actor])).to.deep.equal([
        [1, 'user.created', ada],
        [2, 'ticket.created', bot],
        [3, 'group.created', { type: 'system' }],
        [4, 'message.created', bot],
        [5, 'user.updated', ada],
        [6, 'ticket.updated', ada],
        [7, 'group.deleted', bot],
      ]);
      expect((await store().events.after(0, 100, userId(2))).map((e) => e.seq)).to.deep.equal([2, 4, 7]);
      expect((await store().events.after(2, 1, userId(2))).map((e) => e.seq)).to.deep.equal([4]);
      expect(await store().events.after(0, 100, userId(2))).to.deep.equal(
        all.filter((e) => e.actor.type === 'user' && e.actor.id === userId(2)),
      );
      expect(await store().events.after(0, 100, userId(9))).to.deep.equal([]);
    });

    it("forgets an actor's old changes with the rest", async () => {
      const ada: EventActor = { type: 'user', id: userId(1) };
      for (let i = 1; i <= 4; i++)
        await store().groups.insert(
          aGroup({ id: i, name: `G${String(i)}`, createdAt: T0 + minutes(i), updatedAt: T0 + minutes(i) }),
          ada,
        );
      await store().events.forget(T0 + minutes(3));
      expect((await store().events.after(0, 10, userId(1))).map((e) => e.seq)).to.deep.equal([3, 4]);
    });

    it('numbers events 1, 2, 3... and pages them by `after`', async () => {
      for (let i = 1; i <= 5; i++) await store().groups.insert(aGroup({ id: i, name: `Group ${String(i)}` }));
      expect(await store().events.bounds()).to.deep.equal({ oldest: 1, newest: 5 });
      expect((await store().events.after(0, 100)).map((e) => e.seq)).to.deep.equal([1, 2, 3, 4, 5]);
      expect((await store().events.after(2, 2)).map((e) => e.seq)).to.deep.equal([3, 4]);
      expect(await store().events.after(5, 10)).to.deep.equal([]);
    });

    it('is empty before the first write', async () => {
      expect(await store().events.bounds()).to.deep.equal({ oldest: null, newest: 0 });
      expect(await store().events.after(0, 10)).to.deep.equal([]);
    });

    it('wakes a waiting reader when an event arrives, and one whose wait is aborted', async () => {
      const waiting = new AbortController();
      let woken = false;
      const wait = store()
        .events.waitFor(0, waiting.signal)
        .then(() => {
          woken = true;
        });
      await new Promise((r) => setTimeout(r, 50));
      expect(woken).to.equal(false);
      await store().groups.insert(aGroup({ id: 1 }));
      const timeout = setTimeout(() => {
        waiting.abort();
      }, 5000);
      await wait;
      clearTimeout(timeout);
      expect(waiting.signal.aborted).to.equal(false);
      // Nothing newer than 1: only the abort ends this wait.
      const aborted = new AbortController();
      const second = store().events.waitFor(1, aborted.signal);
      setTimeout(() => {
        aborted.abort();
      }, 50);
      await second;
      // Something newer than 0 already: no wait at all.
      await store().events.waitFor(0, new AbortController().signal);
    });

    it('leaves nothing on the signal of a wait an event ended, so one signal serves wait after wait', async () => {
      const shared = new AbortController();
      for (let i = 1; i <= 3; i++) {
        const wait = store().events.waitFor(i - 1, shared.signal);
        await store().groups.insert(aGroup({ id: i, name: `Group ${String(i)}` }));
        const timeout = setTimeout(() => {
          shared.abort();
        }, 5000);
        await wait;
        clearTimeout(timeout);
        expect(shared.signal.aborted, 'woken by the event, not by the abort').to.equal(false);
        expect(getEventListeners(shared.signal, 'abort'), `listeners left after wait ${String(i)}`).to.have.length(0);
      }
    });

    it('forgets events from the oldest on, up to the first one that occurred at or after the instant', async () => {
      for (let i = 1; i <= 4; i++)
        await store().groups.insert(
          aGroup({ id: i, name: `G${String(i)}`, createdAt: T0 + minutes(i), updatedAt: T0 + minutes(i) }),
        );
      await store().events.forget(T0 + minutes(3));
      expect(await store().events.bounds()).to.deep.equal({ oldest: 3, newest: 4 });
      expect((await store().events.after(0, 10)).map((e) => e.seq)).to.deep.equal([3, 4]);
      await store().events.forget(T0 + minutes(10));
      expect(await store().events.bounds()).to.deep.equal({ oldest: null, newest: 4 });
      await store().groups.insert(aGroup({ id: 9, name: 'G9' }));
      expect((await store().events.after(0, 10)).map((e) => e.seq)).to.deep.equal([5]);
    });

    it('shows a reader polling during 40 concurrent writes every seq once, in order, never a hole that fills later', async () => {
      const writes = Array.from({ length: 40 }, (_, i) =>
        store().groups.insert(aGroup({ id: i + 1, name: `Concurrent ${String(i)}` })),
      );
      // A batch always continues the cursor without a gap; a refused write fails the test with its cause.
      const seen = await readFeedWhileWriting(store().events, writes, {
        batch: 7,
        idle: () => new Promise((r) => setImmediate(r)),
        withinMs: 15_000,
      });
      expect(seen.map((e) => e.seq)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(new Set(seen.map((e) => e.subject.id)).size).to.equal(40);
    });
  });
}
