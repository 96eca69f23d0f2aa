import type { StoredEvent } from '@support/domain';
import { type GroupId, type TicketId, type UserId } from '@support/domain';
import { expect } from 'chai';
import { MongoClient, type ChangeStreamDocument, type Document } from 'mongodb';
import type { MongoStore } from '../src/index.js';
import { referenceBatchSize } from '../src/reference-writes.js';
import { aGroup, aTicket } from './support/builders.js';
import { freshStores, realMongo } from './support/real-mongo.js';

// The change feed on a real replica set, where the engine cannot go: several clients (as
// several service processes) writing through real transactions and the majority commit
// point, a reader on its own client, and the oplog itself showing that a change and its event
// were committed by one transaction. Skipped, with the suite's NOT RUN line, without a mongod.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('MongoDB: the change feed on a replica set', function () {
  this.timeout(300_000);
  let stores: ReturnType<typeof freshStores> | null = null;
  let url = '';

  before(async function () {
    const mongo = await realMongo();
    if (!mongo.available) {
      this.skip();
      return;
    }
    url = mongo.url;
    stores = freshStores(mongo.url);
  });
  after(async () => {
    await stores?.cleanUp();
  });
  const on = (dbName: string): MongoStore => {
    if (stores === null) throw new Error('no mongod');
    return stores.make(dbName);
  };

  it('three clients × 40 concurrent writers and a reader on a fourth: every seq once, in order, never a hole that fills later', async () => {
    const name = `feed_${Date.now()}`;
    const writers = [on(name), on(name), on(name)];
    const reader = on(name);
    await Promise.all([...writers, reader].map((s) => s.start()));
    const seen: StoredEvent[] = [];
    const state = { done: false };
    const writes = writers.flatMap((store, w) =>
      Array.from({ length: 40 }, (_, i) => store.groups.insert(aGroup({ id: (w * 100 + i + 1) as GroupId, name: `Concurrent ${String(w)}-${String(i)}` }))),
    );
    const all = Promise.all(writes).then(() => {
      state.done = true;
    });
    for (;;) {
      const cursor = seen[seen.length - 1]?.seq ?? 0;
      const batch = await reader.events.after(cursor, 7);
      batch.forEach((e, i) => expect(e.seq, 'the batch continues the cursor').to.equal(cursor + i + 1));
      seen.push(...batch);
      if (batch.length === 0) await sleep(5);
      if (state.done && (await reader.events.bounds()).newest === seen.length) break;
    }
    await all;
    expect(seen.map((e) => e.seq)).to.deep.equal(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(new Set(seen.map((e) => e.subject.id)).size).to.equal(120);
  });

  it('a ticket and its event are committed by one transaction (the change stream shows one lsid and txnNumber for both)', async () => {
    const name = `feed_txn_${Date.now()}`;
    const store = on(name);
    await store.start();
    const watcher = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
    try {
      const stream = watcher.db(name).watch<Document, ChangeStreamDocument>([{ $match: { operationType: { $in: ['insert', 'update', 'replace'] } } }]);
      const changes: ChangeStreamDocument[] = [];
      const reading = (async () => {
        for await (const change of stream) {
          changes.push(change);
          if (changes.length >= 3) break;
        }
      })();
      await sleep(500);
      await store.tickets.insert(aTicket({ id: 1 as TicketId }));
      await Promise.race([reading, sleep(20_000)]);
      await stream.close();
      const collections = changes.map((c) => ('ns' in c && 'coll' in c.ns ? c.ns.coll : ''));
      expect(collections).to.have.members(['tickets', 'counters', 'events']);
      const txns = new Set(changes.map((c) => JSON.stringify([('lsid' in c ? c.lsid : null) ?? null, ('txnNumber' in c ? String(c.txnNumber) : null) ?? null])));
      expect(txns.size, 'one transaction').to.equal(1);
      expect([...txns][0]).to.not.include('null');
    } finally {
      await watcher.close();
    }
  });

  it(`a rename over ${String(2 * referenceBatchSize + 10)} tickets racing with updates of those tickets: each ticket's events carry its versions in order, the last one as stored`, async () => {
    const name = `feed_rename_${Date.now()}`;
    const a = on(name);
    const b = on(name);
    await Promise.all([a.start(), b.start()]);
    const n = 2 * referenceBatchSize + 10;
    for (let i = 1; i <= n; i++) await a.tickets.insert(aTicket({ id: i as TicketId, customerId: 10 as UserId }));
    const from = (await a.events.bounds()).newest;
    const updates = (async () => {
      for (let i = 1; i <= n; i += 7) {
        const t = await b.tickets.findById(i as TicketId);
        if (t !== null) await b.tickets.update({ ...t, subject: `Edited ${String(i)}`, version: t.version + 1, updatedAt: t.updatedAt + 1 }, t.version);
      }
    })();
    await Promise.all([a.tickets.renameCustomer(10 as UserId, 'Ada King', Date.now()), updates]);
    const events = await a.events.after(from, 1_000_000);
    expect(events.map((e) => e.seq)).to.deep.equal(events.map((_, i) => from + i + 1));
    for (let i = 1; i <= n; i++) {
      const mine = events.filter((e) => e.subject.resource === 'ticket' && e.subject.id === i).map((e) => (e.data?.resource === 'ticket' ? e.data.ticket : null));
      const versions = mine.map((t) => t?.version ?? 0);
      expect(versions, `ticket ${String(i)}`).to.deep.equal([...versions].sort((x, y) => x - y));
      expect(new Set(versions).size, `ticket ${String(i)}: no version twice`).to.equal(versions.length);
      expect(mine[mine.length - 1], `ticket ${String(i)}: the last event is the stored ticket`).to.deep.equal(await a.tickets.findById(i as TicketId));
      expect(mine[mine.length - 1]?.customerName).to.equal('Ada King');
    }
  });

  it('the actor of each change is stored with its event, a rename’s batches included, and actor_id reads only that user’s events through events_actor', async () => {
    const name = `actors_${Date.now()}`;
    const a = on(name);
    await a.start();
    const ada = { type: 'user', id: 1 as UserId } as const;
    const bot = { type: 'user', id: 2 as UserId, token: { id: 5, name: 'CRM sync' } } as const;
    for (let i = 1; i <= referenceBatchSize + 5; i++) await a.tickets.insert(aTicket({ id: i as TicketId, customerId: 7 as UserId }), bot);
    await a.groups.insert(aGroup({ id: 1 as GroupId, name: 'Billing' }));
    await a.tickets.renameCustomer(7 as UserId, 'Ada King', Date.now(), ada);
    const all = await a.events.after(0, 10_000);
    expect(all.filter((e) => e.type === 'ticket.created').every((e) => JSON.stringify(e.actor) === JSON.stringify(bot))).to.equal(true);
    expect(all.filter((e) => e.type === 'group.created').map((e) => e.actor)).to.deep.equal([{ type: 'system' }]);
    expect(all.filter((e) => e.type === 'ticket.updated')).to.have.length(referenceBatchSize + 5);
    expect(all.filter((e) => e.type === 'ticket.updated').every((e) => JSON.stringify(e.actor) === JSON.stringify(ada))).to.equal(true);
    const adas = await a.events.after(0, 10_000, 1 as UserId);
    expect(adas.map((e) => e.seq)).to.deep.equal(all.filter((e) => e.actor.type === 'user' && e.actor.id === 1).map((e) => e.seq));
    const explained = await a.db.collection<{ _id: number }>('events').find({ 'actor.id': 1, _id: { $gt: 0 } }).sort({ _id: 1 }).hint('events_actor').limit(10).explain('executionStats');
    const stats = explained['executionStats'] as Document;
    expect(stats['totalDocsExamined'], 'only the actor\'s events are read').to.equal(10);
  });
});
