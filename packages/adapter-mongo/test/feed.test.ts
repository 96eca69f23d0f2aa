import type { FollowUp } from '@support/application';
import { carryOut } from '@support/application/testing';
import type { StoredEvent } from '@support/domain';
import { renameCustomer, ticketEvent, type GroupId, type TicketId, type UserId } from '@support/domain';
import { expect } from 'chai';
import { MongoServerError } from 'mongodb';
import { repairPass } from '../src/bulk-writes.js';
import { storeFailureOf } from '../src/errors.js';
import { referenceBatchSize } from '../src/reference-writes.js';
import { TransactionsUnavailableError } from '../src/transactions.js';
import { aGroup, aTicket, aUser, at } from './support/builders.js';
import { engineStore } from './support/mingo-engine.js';

// The Mongo store's change feed on the engine's transactions, in the cases the EventLog
// contract suite does not reach: concurrent writers that really conflict, a write that fails
// half way, a commit that fails either way, bulk writes in several batches (stopped, re-run,
// repaired), and a deployment without transactions.

const now = at + 5_000;
const timeLimit = (): MongoServerError =>
  new MongoServerError({ message: 'operation exceeded time limit', code: 50, codeName: 'MaxTimeMSExpired' });
const labelled = (code: number, codeName: string, label: string): MongoServerError =>
  new MongoServerError({ message: codeName, code, codeName, errorLabels: [label] });
const unlabelled = (code: number, codeName: string, message: string): MongoServerError =>
  new MongoServerError({ message, errmsg: message, code, codeName });

const allEvents = async (store: ReturnType<typeof engineStore>): Promise<StoredEvent[]> => [
  ...(await store.events.after(0, 100_000)),
];
const seqs = (events: readonly StoredEvent[]): number[] => events.map((e) => e.seq);
const oneToN = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
/** A rename of customer 10, the follow-up of a write (carryOut: a user made and deleted with it, two events first). */
const rename: FollowUp = { op: 'renameCustomer', customerId: 10 as UserId, name: 'Ada King', version: 1, now };
const carrierEvents = 2;

describe('the Mongo change feed on the engine', function () {
  this.timeout(60_000);

  /** 30 writers of every kind at once (10 ticket updates, 10 new groups, 10 new users): every one lands, seqs 1..n in commit order, each change once. */
  const concurrentWriters = async (store: ReturnType<typeof engineStore>): Promise<void> => {
    for (let i = 1; i <= 10; i++) await store.tickets.insert(aTicket({ id: i as TicketId }));
    const before = (await store.events.bounds()).newest;
    const writes = [
      ...Array.from({ length: 10 }, (_, i) =>
        store.tickets.update(aTicket({ id: (i + 1) as TicketId, subject: `Changed ${String(i)}`, version: 2 }), 1),
      ),
      ...Array.from({ length: 10 }, (_, i) =>
        store.groups.insert(aGroup({ id: (i + 1) as GroupId, name: `Group ${String(i)}` })),
      ),
      ...Array.from({ length: 10 }, (_, i) =>
        store.users.insert(aUser({ id: (100 + i) as UserId, email: `u${String(i)}@example.com` as never })),
      ),
    ];
    expect(await Promise.all(writes.slice(0, 10))).to.deep.equal(Array.from({ length: 10 }, () => true));
    await Promise.all(writes);
    expect(store.engine.core.conflicts, 'the writers met on the counter').to.be.above(0);
    const events = await allEvents(store);
    expect(seqs(events)).to.deep.equal(oneToN(before + 30));
    expect(events.slice(before).map((e) => `${e.subject.resource}:${String(e.subject.id)}`))
      .to.have.length(30)
      .and.to.satisfy((xs: string[]) => new Set(xs).size === 30);
  };

  it('concurrent writers of every kind conflict on the counter, retry, and leave seqs 1..n in commit order, each change once', async () => {
    await concurrentWriters(engineStore());
  });

  it('the same when the engine answers its conflicts without the TransientTransactionError label (DocumentDB, D1): failed with the conflict before', async () => {
    const store = engineStore();
    let n = 0;
    store.engine.core.conflictError = () =>
      [
        unlabelled(112, 'SqlState(E55P03)', 'canceling statement due to lock timeout'),
        unlabelled(16777220, 'DocumentDB error.', 'could not serialize access due to concurrent update'),
        unlabelled(
          33685826,
          'DocumentDB error.',
          'current transaction is aborted, commands ignored until end of transaction block',
        ),
      ][n++ % 3]!;
    await concurrentWriters(store);
    store.engine.core.commitFaults.push({
      error: unlabelled(16777220, 'DocumentDB error.', 'serialization'),
      applied: false,
    });
    await store.groups.insert(aGroup({ id: 99 as GroupId, name: 'After a refused commit' }));
    expect((await allEvents(store)).filter((e) => e.type === 'group.created')).to.have.length(11);
  });

  it('two writers of one ticket: one wins, the other is refused (its version is gone); one event, holding the winner', async () => {
    const store = engineStore();
    await store.tickets.insert(aTicket());
    const a = aTicket({ subject: 'A', version: 2 });
    const b = aTicket({ subject: 'B', version: 2 });
    const results = await Promise.all([store.tickets.update(a, 1), store.tickets.update(b, 1)]);
    expect(results.filter(Boolean)).to.have.length(1);
    const winner = results[0] ? a : b;
    const events = await allEvents(store);
    expect(events).to.have.length(2);
    expect(events[1]).to.deep.include(ticketEvent('updated', winner, winner.updatedAt));
    expect(await store.tickets.findById(winner.id)).to.deep.equal(winner);
  });

  it('a transaction that fails half way leaves neither its change nor its event; a transient commit failure is run again, recording once', async () => {
    const store = engineStore();
    store.engine.core.commitFaults.push({
      error: labelled(251, 'NoSuchTransaction', 'TransientTransactionError'),
      applied: false,
    });
    await store.groups.insert(aGroup());
    expect(seqs(await allEvents(store))).to.deep.equal([1]);
    store.engine.core.commitFaults.push({ error: timeLimit(), applied: false });
    expect(
      await store.groups.update(aGroup({ name: 'Renamed', version: 2 }), 1).catch((e: unknown) => e),
    ).to.be.instanceOf(MongoServerError);
    expect((await store.groups.findById(aGroup().id))?.name).to.equal('Tier 1');
    expect(seqs(await allEvents(store))).to.deep.equal([1]);
  });

  it('a commit whose outcome is unknown (a write-concern timeout after the primary applied it) is "write not confirmed", and the change has its event', async () => {
    const store = engineStore();
    store.engine.core.commitFaults.push({
      error: labelled(64, 'WriteConcernFailed', 'UnknownTransactionCommitResult'),
      applied: true,
    });
    const failed = await store.groups.insert(aGroup()).catch((e: unknown) => e);
    expect(storeFailureOf(failed)).to.equal('write-not-confirmed');
    expect(await store.groups.findById(aGroup().id)).to.deep.equal(aGroup());
    expect((await allEvents(store)).map((e) => e.type)).to.deep.equal(['group.created']);
  });

  const customerTickets = async (store: ReturnType<typeof engineStore>, n: number) => {
    const tickets = Array.from({ length: n }, (_, i) =>
      aTicket({ id: (i + 1) as TicketId, customerId: 10 as UserId, deletedAt: i % 50 === 7 ? at : null }),
    );
    for (const t of tickets) await store.tickets.insert(t);
    return tickets;
  };

  it(`a rename reaching ${String(2 * referenceBatchSize + 50)} tickets runs in batches of ${String(referenceBatchSize)}: one event per live ticket as written, none for a deleted one`, async () => {
    const store = engineStore();
    const tickets = await customerTickets(store, 2 * referenceBatchSize + 50);
    const from = (await store.events.bounds()).newest + carrierEvents;
    await carryOut(store, [rename], now);
    const events = (await allEvents(store)).slice(from);
    const live = tickets.filter((t) => t.deletedAt === null).map((t) => renameCustomer(t, 'Ada King', now));
    expect(events.map((e) => e.data)).to.have.deep.members(live.map((t) => ({ resource: 'ticket', ticket: t })));
    expect(seqs(events)).to.deep.equal(oneToN(events.length).map((s) => s + from));
    for (const t of tickets) expect((await store.tickets.findById(t.id))?.customerName).to.equal('Ada King');
  });

  it('a batch stopped half way is undone whole; the re-run and the repair pass record each ticket once', async () => {
    const store = engineStore();
    const tickets = await customerTickets(store, referenceBatchSize + 20);
    const from = (await store.events.bounds()).newest + carrierEvents;
    // The first batch commits; the second one's update fails after 5 documents in each of the
    // three runs of the write, which is then left to the repair pass.
    store.engine
      .collection('tickets')
      .faults.push({ op: 'updateMany', skip: 1, partial: 5, error: timeLimit(), times: 3 });
    expect(await carryOut(store, [rename], now).catch((e: unknown) => e)).to.be.instanceOf(MongoServerError);
    expect(store.engine.repairsScheduled).to.equal(1);
    const afterFailure = (await allEvents(store)).slice(from);
    const renamed = (await Promise.all(tickets.map((t) => store.tickets.findById(t.id)))).filter(
      (t) => t?.customerName === 'Ada King',
    );
    // Whatever committed has its events, and only that: no half batch.
    expect(afterFailure.map((e) => (e.data?.resource === 'ticket' ? e.data.ticket.id : null))).to.have.members(
      renamed.filter((t) => t?.deletedAt === null).map((t) => t?.id),
    );
    expect(renamed, 'the first batch, whole; nothing of the second').to.have.length(referenceBatchSize);
    await repairPass(store.engine.ctx);
    const events = (await allEvents(store)).slice(from);
    const ids = events.map((e) => (e.data?.resource === 'ticket' ? e.data.ticket.id : null));
    expect(new Set(ids).size, 'no ticket twice').to.equal(ids.length);
    expect(ids).to.have.members(tickets.filter((t) => t.deletedAt === null).map((t) => t.id));
  });

  it('a deleted group leaves its members with one user.updated each, in the transaction of their change', async () => {
    const store = engineStore();
    for (let i = 0; i < 5; i++)
      await store.users.insert(
        aUser({ id: (20 + i) as UserId, email: `m${String(i)}@example.com` as never, groupIds: [3 as GroupId] }),
      );
    const from = (await store.events.bounds()).newest + carrierEvents;
    await carryOut(store, [{ op: 'removeGroup', groupId: 3 as GroupId, now }], now);
    const events = (await allEvents(store)).slice(from);
    expect(events.map((e) => e.type)).to.deep.equal(Array.from({ length: 5 }, () => 'user.updated'));
    expect(
      events.every(
        (e) => e.data?.resource === 'user' && e.data.user.groupIds.length === 0 && !('passwordHash' in e.data.user),
      ),
    ).to.equal(true);
  });

  it('without transactions (a standalone accepted read-only) a write is refused before anything is written, journal included; reads work', async () => {
    const store = engineStore();
    await store.tickets.insert(aTicket());
    store.engine.transactionsRefused = 'no transactions here';
    for (const write of [
      () => store.tickets.update(aTicket({ version: 2 }), 1),
      () => store.users.delete(10 as UserId, now, undefined, [rename]),
      () => store.groups.insert(aGroup()),
    ]) {
      expect(await write().catch((e: unknown) => e)).to.be.instanceOf(TransactionsUnavailableError);
    }
    expect(store.engine.collection('repairs').docs).to.deep.equal([]);
    expect(await store.tickets.findById(1 as TicketId)).to.deep.equal(aTicket());
    expect(seqs(await allEvents(store))).to.deep.equal([1]);
    // Tokens are not in the feed: they are written as before.
    await store.tokens.revokeFamily('family-1');
  });
});
