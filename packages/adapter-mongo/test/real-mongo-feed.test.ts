import { carryOut, readFeedWhileWriting } from '@support/application/testing';
import { type GroupId, type TicketId, type UserId } from '@support/domain';
import { expect } from 'chai';
import { MongoClient, type ChangeStreamDocument, type Document } from 'mongodb';
import type { MongoStore } from '../src/index.js';
import { referenceBatchSize } from '../src/reference-writes.js';
import { aGroup, aTicket, aUser } from './support/builders.js';
import { freshStores, realEngines } from './support/real-mongo.js';

// The change feed on a real replica set, where the engine cannot go: several clients (as
// several service processes) writing through real transactions and the majority commit
// point, a reader on its own client, and the oplog itself showing that a change and its event
// were committed by one transaction. Skipped, with the suite's NOT RUN line, without a mongod.

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

for (const engine of realEngines())
  describe(`MongoDB: the change feed on a replica set (${engine.name})`, function () {
    this.timeout(300_000);
    let stores: ReturnType<typeof freshStores> | null = null;
    let url = '';

    before(async function () {
      const mongo = await engine.resolve();
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
      const writes = writers.flatMap((store, w) =>
        Array.from({ length: 40 }, (_, i) =>
          store.groups.insert(
            aGroup({ id: (w * 100 + i + 1) as GroupId, name: `Concurrent ${String(w)}-${String(i)}` }),
          ),
        ),
      );
      // Bounded: a refused write (a server without transactions) fails at once with its cause.
      const started = performance.now();
      const seen = await readFeedWhileWriting(reader.events, writes, {
        batch: 7,
        idle: () => sleep(5),
        withinMs: 240_000,
      });
      const ms = performance.now() - started;
      // The feed's append is serial per replica set (docs/mongodb.md, "Feed throughput"): what this one reached.
      console.log(
        `      120 appending writes from 3 clients × 40 writers: ${ms.toFixed(0)} ms, ${(120_000 / ms).toFixed(0)} writes/s`,
      );
      expect(seen.map((e) => e.seq)).to.deep.equal(Array.from({ length: 120 }, (_, i) => i + 1));
      expect(new Set(seen.map((e) => e.subject.id)).size).to.equal(120);
    });

    it('a ticket and its event are committed by one transaction (the change stream shows one lsid and txnNumber for both)', async () => {
      const name = `feed_txn_${Date.now()}`;
      const store = on(name);
      await store.start();
      const watcher = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
      try {
        const stream = watcher
          .db(name)
          .watch<Document, ChangeStreamDocument>([
            { $match: { operationType: { $in: ['insert', 'update', 'replace'] } } },
          ]);
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
        const txns = new Set(
          changes.map((c) =>
            JSON.stringify([
              ('lsid' in c ? c.lsid : null) ?? null,
              ('txnNumber' in c ? String(c.txnNumber) : null) ?? null,
            ]),
          ),
        );
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
          if (t !== null)
            await b.tickets.update(
              { ...t, subject: `Edited ${String(i)}`, version: t.version + 1, updatedAt: t.updatedAt + 1 },
              t.version,
            );
        }
      })();
      // The rename is the follow-up of a write (carryOut: a user made and deleted with it).
      const renameAt = Date.now();
      const rename = {
        op: 'renameCustomer',
        customerId: 10 as UserId,
        name: 'Ada King',
        version: 1,
        now: renameAt,
      } as const;
      await Promise.all([carryOut(a, [rename], renameAt), updates]);
      const events = await a.events.after(from, 1_000_000);
      expect(events.map((e) => e.seq)).to.deep.equal(events.map((_, i) => from + i + 1));
      for (let i = 1; i <= n; i++) {
        const mine = events
          .filter((e) => e.subject.resource === 'ticket' && e.subject.id === i)
          .map((e) => (e.data?.resource === 'ticket' ? e.data.ticket : null));
        const versions = mine.map((t) => t?.version ?? 0);
        expect(versions, `ticket ${String(i)}`).to.deep.equal([...versions].sort((x, y) => x - y));
        expect(new Set(versions).size, `ticket ${String(i)}: no version twice`).to.equal(versions.length);
        expect(mine[mine.length - 1], `ticket ${String(i)}: the last event is the stored ticket`).to.deep.equal(
          await a.tickets.findById(i as TicketId),
        );
        expect(mine[mine.length - 1]?.customerName).to.equal('Ada King');
      }
    });

    it('start creates events and counters (none is left to the first transactions) and seeds the feed counter at 0', async () => {
      const name = `feed_start_${Date.now()}`;
      const store = on(name);
      await store.start();
      const names = (await store.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
      expect(names).to.include.members(['events', 'counters', 'repairs', 'tickets']);
      expect(await store.db.collection('counters').findOne({ _id: 'events' as never })).to.deep.equal({
        _id: 'events',
        seq: 0,
      });
    });

    it("a user's rename and its follow-up's journal record are committed by one transaction (one lsid and txnNumber for the user, the record, the counter and the event)", async () => {
      const name = `feed_follow_${Date.now()}`;
      const store = on(name);
      await store.start();
      const ada = aUser({ role: 'customer' });
      await store.users.insert(ada);
      const watcher = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
      try {
        const stream = watcher
          .db(name)
          .watch<Document, ChangeStreamDocument>([
            { $match: { operationType: { $in: ['insert', 'update', 'replace'] } } },
          ]);
        const changes: ChangeStreamDocument[] = [];
        const reading = (async () => {
          for await (const change of stream) {
            changes.push(change);
            if (changes.length >= 4) break;
          }
        })();
        await sleep(500);
        const renamed = { ...ada, name: 'Ada King', version: 2, updatedAt: Date.now() };
        expect(
          await store.users.update(renamed, 1, undefined, [
            { op: 'renameCustomer', customerId: ada.id, name: 'Ada King', version: 2, now: renamed.updatedAt },
          ]),
        ).to.equal('ok');
        await Promise.race([reading, sleep(20_000)]);
        await stream.close();
        expect(changes.map((c) => ('ns' in c && 'coll' in c.ns ? c.ns.coll : ''))).to.have.members([
          'users',
          'repairs',
          'counters',
          'events',
        ]);
        const txns = new Set(
          changes.map((c) =>
            JSON.stringify([
              ('lsid' in c ? c.lsid : null) ?? null,
              ('txnNumber' in c ? String(c.txnNumber) : null) ?? null,
            ]),
          ),
        );
        expect(txns.size, 'one transaction').to.equal(1);
        expect([...txns][0]).to.not.include('null');
        expect(
          await store.db.collection('repairs').countDocuments(),
          'the record is gone once the rename is done',
        ).to.equal(0);
      } finally {
        await watcher.close();
      }
    });

    it('renames of one customer from two processes at once, their batches racing, leave the current name on every ticket and an empty journal', async () => {
      const name = `feed_renames_${Date.now()}`;
      const a = on(name);
      const b = on(name);
      await Promise.all([a.start(), b.start()]);
      await a.users.insert(aUser({ role: 'customer' }));
      const n = 2 * referenceBatchSize + 50;
      for (let i = 1; i <= n; i++) await a.tickets.insert(aTicket({ id: i as TicketId, customerId: 10 as UserId }));
      const lane = async (store: MongoStore, tag: string): Promise<void> => {
        for (let k = 0; k < 4;) {
          const u = await store.users.findById(10 as UserId);
          if (u === null) throw new Error('the customer is gone');
          const next = { ...u, name: `${tag} ${String(k)}`, version: u.version + 1, updatedAt: Date.now() };
          const due = [
            {
              op: 'renameCustomer',
              customerId: u.id,
              name: next.name,
              version: next.version,
              now: next.updatedAt,
            } as const,
          ];
          if ((await store.users.update(next, u.version, undefined, due)) === 'ok') k++;
        }
      };
      await Promise.all([lane(a, 'A'), lane(b, 'B')]);
      const current = (await a.users.findById(10 as UserId))?.name;
      const names = new Set(
        (
          await a.db
            .collection('tickets')
            .find({}, { projection: { customerName: 1 } })
            .toArray()
        ).map((d) => d['customerName'] as unknown),
      );
      expect(names).to.deep.equal(new Set([current]));
      expect(await a.db.collection('repairs').countDocuments()).to.equal(0);
    });

    it('the actor of each change is stored with its event, a rename’s batches included, and actor_id reads only that user’s events through events_actor', async () => {
      const name = `actors_${Date.now()}`;
      const a = on(name);
      await a.start();
      const ada = { type: 'user', id: 1 as UserId } as const;
      const bot = { type: 'user', id: 2 as UserId, token: { id: 5, name: 'CRM sync' } } as const;
      for (let i = 1; i <= referenceBatchSize + 5; i++)
        await a.tickets.insert(aTicket({ id: i as TicketId, customerId: 7 as UserId }), bot);
      await a.groups.insert(aGroup({ id: 1 as GroupId, name: 'Billing' }));
      const renameAt = Date.now();
      const rename = {
        op: 'renameCustomer',
        customerId: 7 as UserId,
        name: 'Ada King',
        version: 1,
        now: renameAt,
      } as const;
      await carryOut(a, [rename], renameAt, ada); // a follow-up of a write by ada (carryOut: a user made and deleted with it)
      const all = await a.events.after(0, 10_000);
      expect(
        all.filter((e) => e.type === 'ticket.created').every((e) => JSON.stringify(e.actor) === JSON.stringify(bot)),
      ).to.equal(true);
      expect(all.filter((e) => e.type === 'group.created').map((e) => e.actor)).to.deep.equal([{ type: 'system' }]);
      expect(all.filter((e) => e.type === 'ticket.updated')).to.have.length(referenceBatchSize + 5);
      expect(
        all.filter((e) => e.type === 'ticket.updated').every((e) => JSON.stringify(e.actor) === JSON.stringify(ada)),
      ).to.equal(true);
      const adas = await a.events.after(0, 10_000, 1 as UserId);
      expect(adas.map((e) => e.seq)).to.deep.equal(
        all.filter((e) => e.actor.type === 'user' && e.actor.id === 1).map((e) => e.seq),
      );
      const explained = await a.db
        .collection<{ _id: number }>('events')
        .find({ 'actor.id': 1, _id: { $gt: 0 } })
        .sort({ _id: 1 })
        .hint('events_actor')
        .limit(10)
        .explain('executionStats');
      const stats = explained['executionStats'] as Document;
      expect(stats['totalDocsExamined'], "only the actor's events are read").to.equal(10);
    });
  });
