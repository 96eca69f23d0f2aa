import type { FollowUp } from '@support/application';
import type { EventActor, GroupId, TicketId, User, UserId } from '@support/domain';
import { expect } from 'chai';
import { MongoServerError } from 'mongodb';
import { completeJournaled, journalEntry, repairPass, type BulkCollections } from '../src/bulk-writes.js';
import { storeFailureOf } from '../src/errors.js';
import { repositoriesOn } from '../src/store.js';
import { aGroup, aTicket, aToken, aUser, at } from './support/builders.js';
import { engineStore } from './support/mingo-engine.js';

// The follow-ups of a user's or group's write (a rename on the customer's tickets, a deleted
// user unassigned and logged out, a deleted group off its tickets and members) are journaled
// in the write's own transaction: whatever stops the process or the store after the write
// has committed (a crash, an answer lost, a failure of the follow-up itself), the journal
// holds the follow-up and the repair pass finishes it. And two renames of one customer, in
// any order and however late, leave the customer's current name on every ticket.

const now = at + 5_000;
/** What makes the process stop here: an error no retry or classification handles. */
const crash = (): Error => new Error('the process stops here');
const unknownCommit = (): MongoServerError =>
  new MongoServerError({
    message: 'waiting for replication timed out',
    code: 64,
    codeName: 'WriteConcernFailed',
    errorLabels: ['UnknownTransactionCommitResult'],
  });
const timeLimit = (): MongoServerError =>
  new MongoServerError({ message: 'operation exceeded time limit', code: 50, codeName: 'MaxTimeMSExpired' });

/** The admin whose request (made with a personal token) caused the writes: their follow-ups' events carry it, a repair's too (contract §8.3). */
const admin: EventActor = { type: 'user', id: 1 as UserId, token: { id: 4, name: 'CRM sync' } };
const renamed = (u: User, name: string, version: number): User => ({ ...u, name, updatedAt: now, version });
const rename = (name: string, version: number): FollowUp => ({
  op: 'renameCustomer',
  customerId: 10 as UserId,
  name,
  version,
  now,
});

const seeded = async (tickets = 5) => {
  const store = engineStore();
  const ada = aUser({ role: 'customer' });
  await store.users.insert(ada);
  for (let i = 1; i <= tickets; i++)
    await store.tickets.insert(aTicket({ id: i as TicketId, assignedUserId: 7 as UserId, groupId: 3 as GroupId }));
  const c = store.engine.ctx as BulkCollections;
  const journal = () => store.engine.collection('repairs').docs;
  const names = async () =>
    new Set(
      (await Promise.all(Array.from({ length: tickets }, (_, i) => store.tickets.findById((i + 1) as TicketId)))).map(
        (t) => t?.customerName,
      ),
    );
  return { store, ada, c, journal, names };
};

describe('follow-ups journaled with the write that makes them due (Mongo store, engine)', function () {
  this.timeout(60_000);

  it('a process that stops after the rename has committed leaves the rename journaled; the repair pass of the next start finishes it, one event per ticket', async () => {
    const { store, ada, journal, names } = await seeded();
    store.engine.collection('tickets').faults.push({ op: 'updateMany', partial: 0, error: crash(), times: 1 });
    const failed = await store.users
      .update(renamed(ada, 'Ada King', 2), 1, admin, [rename('Ada King', 2)])
      .catch((e: unknown) => e);
    expect(failed).to.be.instanceOf(Error).with.property('message', 'the process stops here');
    expect((await store.users.findById(10 as UserId))?.name, 'the user write committed').to.equal('Ada King');
    expect(
      journal().map((d): unknown => d['intent']),
      'the record keeps the actor',
    ).to.deep.equal([{ ...rename('Ada King', 2), by: admin }]);
    expect(await names()).to.deep.equal(new Set(['Ada Lovelace']));
    // The next start: a new process on the same database runs the repair pass.
    const from = (await store.events.bounds()).newest;
    const restarted = repositoriesOn(store.engine.ctx);
    expect(await repairPass(store.engine.ctx)).to.equal(1);
    expect(await names()).to.deep.equal(new Set(['Ada King']));
    expect((await restarted.events.after(from, 100)).map((e) => [e.type, e.actor])).to.deep.equal(
      Array.from({ length: 5 }, () => ['ticket.updated', admin]),
    );
    expect(journal()).to.deep.equal([]);
  });

  it('a commit whose answer is lost (it did commit) is "write not confirmed", and the follow-up it made due is journaled with it for the repair pass', async () => {
    const { store, ada, journal, names } = await seeded();
    store.engine.core.commitFaults.push({ error: unknownCommit(), applied: true });
    const failed = await store.users
      .update(renamed(ada, 'Ada King', 2), 1, admin, [
        rename('Ada King', 2),
        { op: 'unassignUser', userId: 10 as UserId, now },
      ])
      .catch((e: unknown) => e);
    expect(storeFailureOf(failed)).to.equal('write-not-confirmed');
    expect(store.engine.repairsScheduled, 'the background repair pass is due').to.equal(1);
    // A retry of the PATCH is now a no-op (the name is already the asked one): only the journal can finish it.
    expect(journal().map((d): unknown => d['_id'])).to.have.members(['renameCustomer:10', 'unassignUser:10']);
    await repairPass(store.engine.ctx);
    expect(await names()).to.deep.equal(new Set(['Ada King']));
    expect(journal()).to.deep.equal([]);
  });

  it('a commit that fails before applying records neither the write nor its follow-ups', async () => {
    const { store, ada, journal } = await seeded();
    store.engine.core.commitFaults.push({ error: timeLimit(), applied: false });
    expect(
      await store.users.update(renamed(ada, 'Ada King', 2), 1, admin, [rename('Ada King', 2)]).catch((e: unknown) => e),
    ).to.be.instanceOf(MongoServerError);
    expect(await store.users.findById(10 as UserId)).to.deep.equal(ada);
    expect(journal()).to.deep.equal([]);
  });

  it("a deleted user's and a deleted group's follow-ups survive a stop after the delete: tokens revoked (personal ones too), tickets unassigned and ungrouped, members out, by the deleting admin", async () => {
    const { store, journal } = await seeded();
    await store.users.insert(
      aUser({ id: 7 as UserId, email: 'agent@example.com' as never, role: 'agent', groupIds: [3 as GroupId] }),
    );
    await store.groups.insert(aGroup());
    await store.tokens.save(aToken({ userId: 7 as UserId, expiresAt: Date.now() + 3_600_000 }));
    const pat = {
      id: 6,
      userId: 7 as UserId,
      name: 'bot',
      scopes: ['tickets:read' as const],
      hash: 'b'.repeat(64),
      createdAt: at,
      expiresAt: Date.now() + 3_600_000,
      lastUsedAt: null,
    };
    await store.personalTokens.insert(pat);
    const from = (await store.events.bounds()).newest;
    store.engine.collection('tickets').faults.push({ op: 'updateMany', partial: 0, error: crash(), times: 2 });
    const groupGone: FollowUp[] = [
      { op: 'removeGroup', groupId: 3 as GroupId, now },
      { op: 'clearGroup', groupId: 3 as GroupId, now },
    ];
    expect(await store.groups.delete(3 as GroupId, now, admin, groupGone).catch((e: unknown) => e)).to.be.instanceOf(
      Error,
    );
    const userGone: FollowUp[] = [
      { op: 'revokeUser', userId: 7 as UserId },
      { op: 'revokePersonalTokens', userId: 7 as UserId },
      { op: 'unassignUser', userId: 7 as UserId, now },
    ];
    expect(await store.users.delete(7 as UserId, now, admin, userGone).catch((e: unknown) => e)).to.be.instanceOf(
      Error,
    );
    expect(journal().map((d): unknown => d['_id'])).to.have.members(['clearGroup:3', 'unassignUser:7']);
    expect(await repairPass(store.engine.ctx)).to.equal(2);
    const t1 = await store.tickets.findById(1 as TicketId);
    expect([t1?.assignedUserId, t1?.groupId]).to.deep.equal([null, null]);
    expect(await store.tokens.find('a'.repeat(64), Date.now())).to.equal(null);
    expect(await store.personalTokens.findByHash('b'.repeat(64), Date.now())).to.equal(null);
    const actors = (await store.events.after(from, 1000)).map((e) => e.actor);
    expect(actors.length).to.be.above(2);
    expect(
      actors.every((a) => JSON.stringify(a) === JSON.stringify(admin)),
      'every event, the repaired ones included, names the admin',
    ).to.equal(true);
    expect(journal()).to.deep.equal([]);
  });
});

describe('two renames of one customer converge on the current name (Mongo store, engine)', function () {
  this.timeout(60_000);

  it("an older rename run late (its process was slow, or it is repaired) puts the user's current name, never its own", async () => {
    const { store, ada, c, journal, names } = await seeded();
    // Rename to B: its follow-up fails every attempt and stays journaled.
    store.engine.collection('tickets').faults.push({ op: 'updateMany', partial: 0, error: timeLimit(), times: 3 });
    const b = renamed(ada, 'Ada Byron', 2);
    await store.users.update(b, 1, undefined, [rename('Ada Byron', 2)]).catch(() => undefined);
    // Rename to C: done at once; its record replaced B's (one per customer), and is gone once done.
    expect(await store.users.update(renamed(b, 'Ada King', 3), 2, undefined, [rename('Ada King', 3)])).to.equal('ok');
    expect(await names()).to.deep.equal(new Set(['Ada King']));
    expect(journal()).to.deep.equal([]);
    // B's run arrives late: it reads the user (version 3 > 2) and changes nothing.
    const from = (await store.events.bounds()).newest;
    await completeJournaled(c, journalEntry(rename('Ada Byron', 2)), {
      maxTimeMS: 10_000,
      attempts: 1,
      leftUndone: () => undefined,
    });
    expect(await names()).to.deep.equal(new Set(['Ada King']));
    expect((await store.events.bounds()).newest, 'no event: nothing changed').to.equal(from);
  });

  it("a newer rename's record is not cleared by an older rename finishing", async () => {
    const { store, c, journal } = await seeded();
    const older = journalEntry(rename('Ada Byron', 2));
    const newer = journalEntry(rename('Ada King', 3));
    await store.engine
      .collection('repairs')
      .insertOne({ _id: newer._id, intent: newer.intent, mark: newer.mark, at: new Date() });
    await completeJournaled(c, older, { maxTimeMS: 10_000, attempts: 1, leftUndone: () => undefined });
    expect(journal().map((d): unknown => d['mark'])).to.deep.equal([newer.mark]);
  });

  it('renames whose batches race, started in any order (the newest first too), end with the current name on every ticket', async () => {
    const names4 = ['Ada Byron', 'Ada King', 'Countess Lovelace', 'A. A. Lovelace'];
    for (const order of [
      [3, 2, 1, 0],
      [1, 3, 0, 2],
      [0, 1, 2, 3],
    ]) {
      const { store, ada, c, journal, names } = await seeded(450);
      // The user writes commit in turn (versions 2..5); their renames then run in `order`, each
      // started a little after the one before, so that their batches interleave.
      let current = ada;
      for (const name of names4) {
        const next = renamed(current, name, current.version + 1);
        expect(await store.users.update(next, current.version)).to.equal('ok');
        current = next;
      }
      const runs: Promise<void>[] = [];
      for (const i of order) {
        runs.push(
          completeJournaled(c, journalEntry(rename(names4[i] ?? '', i + 2)), {
            maxTimeMS: 10_000,
            attempts: 1,
            leftUndone: () => undefined,
          }),
        );
        for (let k = 0; k < 50; k++) await Promise.resolve();
      }
      await Promise.all(runs);
      expect(await names(), `order ${order.join(',')}`).to.deep.equal(new Set(['A. A. Lovelace']));
      expect(journal()).to.deep.equal([]);
    }
  });
});
