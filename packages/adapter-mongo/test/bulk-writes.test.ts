import type { FollowUp } from '@support/application';
import { carryOut } from '@support/application/testing';
import type { GroupId, TicketId, UserId } from '@support/domain';
import { renameCustomer, unassignTicket, ungroupTicket } from '@support/domain';
import { expect } from 'chai';
import { MongoServerError } from 'mongodb';
import { repairPass, type BulkCollections } from '../src/bulk-writes.js';
import { toTokenDocument } from '../src/documents.js';
import { aGroup, aTicket, aToken, aUser, at } from './support/builders.js';
import { engineStore } from './support/mingo-engine.js';

// Bulk writes that finish: idempotent (a second run changes only what the first missed),
// retried at once when a time limit or an outage stops them half way, journaled so that
// the repair pass finishes what the retries did not, and repaired only while still due.
// Each is a follow-up of a write (carryOut: a user deleted with it), as the application makes them.

const now = at + 5_000;
const rename: FollowUp = { op: 'renameCustomer', customerId: 10 as UserId, name: 'Ada King', version: 1, now };
const timeLimit = (): MongoServerError =>
  new MongoServerError({ message: 'operation exceeded time limit', code: 50, codeName: 'MaxTimeMSExpired' });

const filled = async () => {
  const store = engineStore();
  const tickets = [1, 2, 3, 4].map((i) =>
    aTicket({ id: i as TicketId, assignedUserId: 7 as UserId, groupId: 3 as GroupId, version: i }),
  );
  for (const t of tickets) await store.tickets.insert(t);
  const c = store.engine.ctx as BulkCollections;
  const journal = () => store.engine.collection('repairs').docs;
  return { store, tickets, c, journal };
};

describe('bulk writes that finish', () => {
  it('a rename stopped half way by the time limit is run again at once and changes each ticket exactly once', async () => {
    const { store, tickets, journal } = await filled();
    store.engine.collection('tickets').faults.push({ op: 'updateMany', partial: 2, error: timeLimit(), times: 1 });
    await carryOut(store, [rename], now);
    for (const t of tickets)
      expect(await store.tickets.findById(t.id)).to.deep.equal(renameCustomer(t, 'Ada King', now));
    expect(journal(), 'the journal record is gone once the write is done').to.deep.equal([]);
    expect(store.engine.repairsScheduled).to.equal(0);
  });

  it('a rename that keeps failing is left in the journal and answered as a failure; the repair pass finishes it, each ticket changed once', async () => {
    const { store, tickets, c, journal } = await filled();
    store.engine.collection('tickets').faults.push({ op: 'updateMany', partial: 1, error: timeLimit(), times: 3 });
    const failed: unknown = await carryOut(store, [rename], now).catch((e: unknown) => e);
    expect(failed).to.be.instanceOf(MongoServerError);
    expect(journal()).to.have.length(1);
    expect(journal()[0]).to.deep.include({
      _id: 'renameCustomer:10',
      intent: { op: 'renameCustomer', customerId: 10, name: 'Ada King', version: 1, now },
    });
    expect(store.engine.repairsScheduled, 'a background repair is due').to.equal(1);
    expect(await repairPass(c)).to.equal(1);
    for (const t of tickets)
      expect(await store.tickets.findById(t.id)).to.deep.equal(renameCustomer(t, 'Ada King', now));
    expect(journal()).to.deep.equal([]);
    expect(await repairPass(c), 'nothing left').to.equal(0);
  });

  it("a repaired rename uses the customer's current name (the user is the truth, the journal the latest intent)", async () => {
    const { store, tickets, c } = await filled();
    await store.users.insert(aUser({ id: 10 as UserId, name: 'Ada Byron' }));
    store.engine.collection('tickets').faults.push({ op: 'updateMany', partial: 0, error: timeLimit(), times: 3 });
    await carryOut(store, [rename], now).catch(() => undefined);
    await repairPass(c);
    for (const t of tickets) expect((await store.tickets.findById(t.id))?.customerName).to.equal('Ada Byron');
  });

  it('unassigning: repaired while the user is gone or a customer, not once they are staff again (their new assignments stay)', async () => {
    for (const [user, due] of [
      [null, true],
      [aUser({ id: 7 as UserId, role: 'customer' }), true],
      [aUser({ id: 7 as UserId, role: 'agent' }), false],
    ] as const) {
      const { store, tickets, c } = await filled();
      if (user !== null) await store.users.insert(user);
      store.engine.collection('tickets').faults.push({ op: 'updateMany', partial: 0, error: timeLimit(), times: 3 });
      await carryOut(store, [{ op: 'unassignUser', userId: 7 as UserId, now }], now).catch(() => undefined);
      await repairPass(c);
      const after = await Promise.all(tickets.map((t) => store.tickets.findById(t.id)));
      if (due) expect(after, String(user?.role)).to.deep.equal(tickets.map((t) => unassignTicket(t, now)));
      else expect(after, 'left as they are').to.deep.equal(tickets);
    }
  });

  it('clearing a group from tickets and members: repaired while the group is gone, not if it exists', async () => {
    for (const exists of [false, true]) {
      const { store, tickets, c, journal } = await filled();
      if (exists) await store.groups.insert(aGroup({ id: 3 as GroupId }));
      const member = aUser({ id: 20 as UserId, email: 'm@x.io' as never, groupIds: [3 as GroupId] });
      await store.users.insert(member);
      store.engine.collection('tickets').faults.push({ op: 'updateMany', partial: 0, error: timeLimit(), times: 3 });
      // The write answers with the first follow-up's failure: the second, journaled with it, is left to the repair pass too.
      const due: FollowUp[] = [
        { op: 'clearGroup', groupId: 3 as GroupId, now },
        { op: 'removeGroup', groupId: 3 as GroupId, now },
      ];
      await carryOut(store, due, now).catch(() => undefined);
      expect(journal()).to.have.length(2);
      await repairPass(c);
      const after = await Promise.all(tickets.map((t) => store.tickets.findById(t.id)));
      expect(after).to.deep.equal(exists ? tickets : tickets.map((t) => ungroupTicket(t, now)));
      expect((await store.users.findById(member.id))?.groupIds).to.deep.equal(exists ? [3] : []);
      expect(journal()).to.deep.equal([]);
    }
  });

  it("revoking a user's tokens: the repair removes the tokens saved before the revocation, and spares those issued after it", async () => {
    const { store, c, journal } = await filled();
    const tokens = store.engine.collection('tokens');
    await store.tokens.save(aToken({ hash: 'old', userId: 7 as UserId }));
    tokens.faults.push({ op: 'deleteMany', partial: 0, error: timeLimit(), times: 3 });
    await carryOut(store, [{ op: 'revokeUser', userId: 7 as UserId }], now).catch(() => undefined);
    const revokedAt = journal()[0]?.['at'] as Date;
    expect(revokedAt).to.be.instanceOf(Date);
    await tokens.insertOne({
      ...toTokenDocument(aToken({ hash: 'new', userId: 7 as UserId })),
      savedAt: new Date(revokedAt.getTime() + 1),
    });
    await repairPass(c);
    expect(tokens.docs.map((d) => d['_id'] as string)).to.deep.equal(['new']);
  });

  it('a family revocation is finished by the repair pass whatever happened since (a revoked login issues no new tokens)', async () => {
    const { store, c } = await filled();
    const tokens = store.engine.collection('tokens');
    for (const hash of ['a', 'b', 'c']) await store.tokens.save(aToken({ hash, familyId: 'f' }));
    tokens.faults.push({ op: 'deleteMany', partial: 0, error: timeLimit(), times: 3 });
    await store.tokens.revokeFamily('f').catch(() => undefined);
    expect(tokens.docs).to.have.length(3);
    await repairPass(c);
    expect(tokens.docs).to.deep.equal([]);
  });

  it('a failure that is not an outage or a time limit is not retried (a bug shows at once), and stays journaled', async () => {
    const { store, journal } = await filled();
    const bug = new MongoServerError({ message: 'bad update', code: 2, codeName: 'BadValue' });
    store.engine.collection('tickets').faults.push({ op: 'updateMany', partial: 0, error: bug, times: 1 });
    const due: FollowUp[] = [{ op: 'unassignUser', userId: 7 as UserId, now }];
    expect(await carryOut(store, due, now).catch((e: unknown) => e)).to.equal(bug);
    expect(journal()).to.have.length(1);
  });
});
