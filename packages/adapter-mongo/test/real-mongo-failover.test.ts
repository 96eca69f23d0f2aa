import { StoreUnavailableError, StoreWriteNotConfirmedError } from '@support/application';
import type { TicketId } from '@support/domain';
import { expect } from 'chai';
import { MongoClient, MongoNetworkError, type Document } from 'mongodb';
import type { MongoStore } from '../src/index.js';
import { aTicket } from './support/builders.js';
import { freshStores, realEngines } from './support/real-mongo.js';

// A primary step-down while a writer keeps writing (a real replica set only: with one member,
// it steps down, stays ineligible for stepDownSecs, then elects itself again). Every write
// must end as done (and be there afterwards) or as "unavailable" / "not confirmed" (never a
// bug, never a silent loss), and writes must go through again once a primary is back; the
// change feed must hold exactly the committed tickets, gap-free.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const engine of realEngines())
  describe(`MongoDB: a primary step-down during writes (${engine.name})`, function () {
    this.timeout(180_000);
    let stores: ReturnType<typeof freshStores> | null = null;
    let admin: MongoClient | null = null;

    before(async function () {
      const mongo = await engine.resolve();
      if (!mongo.available) {
        this.skip();
        return;
      }
      admin = new MongoClient(mongo.url, { serverSelectionTimeoutMS: 5000 });
      const hello: Document = await admin.db('admin').command({ hello: 1 });
      if (typeof hello['setName'] !== 'string') {
        console.warn(
          '\nMongoDB step-down test did NOT run: the server is not a replica set member (a standalone has no primary to step down).',
        );
        this.skip();
        return;
      }
      stores = freshStores(mongo.url);
    });
    after(async () => {
      await stores?.cleanUp();
      await admin?.close();
    });

    it('every write is done or answered "unavailable"/"not confirmed"; none is lost; writing resumes', async function () {
      if (stores === null || admin === null) {
        this.skip();
        return;
      }
      const store: MongoStore = stores.make();
      await store.start();
      const done: number[] = [];
      const failed: unknown[] = [];
      const state = { stop: false };
      const writer = (async () => {
        while (!state.stop) {
          try {
            const id = await store.ids.next('ticket');
            await store.tickets.insert(aTicket({ id: id as TicketId }));
            done.push(id);
          } catch (e) {
            failed.push(e);
            await sleep(100);
          }
        }
      })();
      await sleep(1_000);
      const stepDown = await admin
        .db('admin')
        .command({ replSetStepDown: 10, secondaryCatchUpPeriodSecs: 5, force: true })
        .then(
          () => null,
          (e: unknown) => e,
        );
      if (stepDown !== null && !(stepDown instanceof MongoNetworkError)) {
        state.stop = true;
        await writer;
        console.warn(
          `\nMongoDB step-down test did NOT run: replSetStepDown was refused (${stepDown instanceof Error ? (stepDown.message.split('\n')[0] ?? '') : 'no error message'}).`,
        );
        this.skip();
      }
      await sleep(25_000);
      const before = done.length;
      await sleep(3_000);
      state.stop = true;
      await writer;
      console.log(
        `\n  step-down: ${done.length} writes done, ${failed.length} answered as failures while there was no primary`,
      );
      for (const e of failed)
        expect(e instanceof StoreUnavailableError || e instanceof StoreWriteNotConfirmedError, String(e)).to.equal(
          true,
        );
      expect(failed.length, 'the step-down was noticed').to.be.above(0);
      expect(done.length, 'writes resumed once a primary was back').to.be.above(before);
      for (const id of done)
        expect(await store.tickets.findById(id as TicketId), `acknowledged write ${id}`).to.not.equal(null);
      expect(new Set(done).size).to.equal(done.length);
      // The change feed through the step-down: seqs 1..n without a hole, one ticket.created for
      // each stored ticket and none for a ticket that is not stored (a write answered as a
      // failure either committed with its event or left neither).
      const events = await store.events.after(0, 1_000_000);
      expect(events.map((e) => e.seq)).to.deep.equal(events.map((_, i) => i + 1));
      const stored = (
        await store.db
          .collection('tickets')
          .find({}, { projection: { _id: 1 } })
          .toArray()
      ).map((d) => Number(d['_id']));
      expect(events.map((e) => e.subject.id)).to.have.members(stored);
      expect(events.every((e) => e.type === 'ticket.created')).to.equal(true);
    });
  });
