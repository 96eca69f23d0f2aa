import { StoreUnavailableError } from '@support/application';
import {
  sortFields,
  type GroupId,
  type TicketFilter,
  type TicketId,
  type UserId,
  noQueueConditions,
} from '@support/domain';
import { sortOf } from '@support/application/testing';
import { expect } from 'chai';
import type { Document } from 'mongodb';
import type { MongoStore } from '../src/index.js';
import { collectionNames } from '../src/collections.js';
import { indexSpecs } from '../src/indexes.js';
import { countQuery, plannedQueries } from '../src/ticket-plan.js';
import { ticketFilterToMongo } from '../src/ticket-query.js';
import { toTicketDocument } from '../src/documents.js';
import { aGroup, aTicket, aToken, aUser, at } from './support/builders.js';
import { fixtureTickets, now } from './support/fixtures.js';
import { freshStores, realEngines } from './support/real-mongo.js';

// Checks that need a real server (MONGO_URL, or Testcontainers when a container runtime
// answers). Without one the whole block is skipped, pending, with one loud line.

/** Every stage of a plan, depth first. */
const stages = (plan: Document): string[] => {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const n = node as Document;
    const stage: unknown = n['stage'];
    if (typeof stage === 'string') out.push(stage);
    for (const key of ['inputStage', 'queryPlan']) walk(n[key]);
    if (Array.isArray(n['inputStages'])) for (const child of n['inputStages'] as unknown[]) walk(child);
  };
  walk(plan);
  return out;
};

/** One filter per shape class of the queue filters, as the planner sees them. */
const queueFilters = (now: number): Partial<TicketFilter>[] => [
  { assignees: { ids: [201 as UserId], none: false } },
  { assignees: { ids: [201 as UserId, 202 as UserId], none: true }, states: ['open'] },
  { groups: { ids: [], none: true } },
  { groups: { ids: [3 as GroupId], none: false }, assignees: { ids: [], none: true } },
  { customerIds: [101 as UserId, 102 as UserId] },
  { customerId: 101 as UserId, customerIds: [101 as UserId] },
  { priorities: ['urgent'] },
  { priorities: ['high', 'urgent'], states: ['open', 'pending'] },
  { tags: ['vip'] },
  { tags: ['vip', 'billing'], priorities: ['urgent'] },
  { updatedSince: now - 86_400_000 },
  { updatedSince: now - 86_400_000, tags: ['vip'] },
  { updatedSince: now - 86_400_000, assignees: { ids: [201 as UserId], none: false }, words: ['printer'] },
];

for (const engine of realEngines())
  describe(`MongoDB adapter on a real server (${engine.name})`, function () {
    this.timeout(180_000);
    let stores: ReturnType<typeof freshStores> | null = null;

    before(async function () {
      const mongo = await engine.resolve();
      if (!mongo.available) {
        this.skip();
        return;
      }
      stores = freshStores(mongo.url);
      await stores.prepare(1);
    });
    // A test's databases are emptied for the next one (freshStores): a new one costs its whole index set.
    afterEach(async () => {
      await stores?.recycle();
    });
    after(async () => {
      await stores?.cleanUp();
    });
    const fresh = (dbName?: string): MongoStore => {
      if (stores === null) throw new Error('no mongod');
      return stores.make(dbName);
    };

    describe('start and indexes', () => {
      it('creates every declared index, idempotently, from two processes at once', async () => {
        const name = `idx_${Date.now()}`;
        const a = fresh(name);
        const b = fresh(name);
        await Promise.all([a.ensureIndexes(), b.ensureIndexes()]);
        await a.ensureIndexes();
        const existing = new Set<string>();
        for (const c of Object.values(collectionNames)) {
          const infos = (await a.db.collection(c).listIndexes().toArray()) as { name: string }[];
          for (const ix of infos) existing.add(ix.name);
        }
        for (const spec of indexSpecs) expect(existing.has(spec.name), spec.name).to.equal(true);
        expect(await a.health.ping()).to.equal(true);
      });
    });

    describe('query plans: every query of every search shape uses its index, no SORT stage, no COLLSCAN', () => {
      let store: MongoStore;
      before(async () => {
        store = fresh(`plans_${String(Date.now())}`); // named: kept across this block's tests
        await store.ensureIndexes();
        for (const t of fixtureTickets()) await store.tickets.insert(t);
      });
      const filters: readonly TicketFilter[] = [
        { ...noQueueConditions, states: null, customerId: null, words: [], closedSince: null },
        { ...noQueueConditions, states: ['open', 'pending'], customerId: null, words: [], closedSince: null },
        { ...noQueueConditions, states: ['open'], customerId: null, words: [], closedSince: null },
        { ...noQueueConditions, states: null, customerId: 101 as UserId, words: [], closedSince: null },
        { ...noQueueConditions, states: ['closed'], customerId: 102 as UserId, words: [], closedSince: null },
        { ...noQueueConditions, states: ['closed'], customerId: null, words: [], closedSince: now - 7 * 86_400_000 },
        { ...noQueueConditions, states: null, customerId: null, words: ['printer'], closedSince: null },
        {
          ...noQueueConditions,
          states: ['open', 'closed'],
          customerId: null,
          words: ['printer', 'cafe'],
          closedSince: null,
        },
        { ...noQueueConditions, states: null, customerId: 101 as UserId, words: ['printer'], closedSince: null },
        // The queue filters (contract §5), one per shape class of docs/queue-filters.md: an exact
        // family (assignee, group, customers), the tags index, a priority or updated_since range
        // on the family's own index, and pairs of them.
        ...queueFilters(now).map((spec): TicketFilter => ({
          ...noQueueConditions,
          states: null,
          customerId: null,
          words: [],
          closedSince: null,
          ...spec,
        })),
      ];
      const sorts = [
        ...sortFields.flatMap((f) => [f, `-${f}`, `${f},-id`, `-${f},id`]),
        '-priority,createdAt',
        'state,-priority,subject,-id',
        'closedAt,-updatedAt,priority,id',
        'subject,state,priority,createdAt,updatedAt,closedAt',
      ];
      for (const filter of filters) {
        it(`${JSON.stringify(ticketFilterToMongo(filter))}: every planned query of ${sorts.length} sorts`, async () => {
          const seen = new Set<string>();
          for (const sort of sorts) {
            const rules = sortOf(...sort.split(','));
            for (const q of plannedQueries(filter, rules)) {
              const key = JSON.stringify(q);
              if (seen.has(key)) continue;
              seen.add(key);
              const cursor = store.db
                .collection('tickets')
                .find(q.filter, { hint: q.hint, ...(q.sort === undefined ? {} : { sort: q.sort }) })
                .limit(30);
              const explained = await cursor.explain('queryPlanner');
              const winning = (explained['queryPlanner'] as Document)['winningPlan'] as Document;
              const plan = stages(winning);
              expect(plan, `${key}\n${JSON.stringify(winning)}`).to.not.include('COLLSCAN');
              expect(plan, `${key}\n${JSON.stringify(winning)}`).to.not.include('SORT');
            }
          }
        });
      }
      it('counts are index counts too', async () => {
        for (const filter of filters) {
          const q = countQuery(filter);
          const explained = await store.db.command({
            explain: { count: 'tickets', query: q.filter, hint: q.hint },
            verbosity: 'queryPlanner',
          });
          expect(stages((explained['queryPlanner'] as Document)['winningPlan'] as Document)).to.not.include('COLLSCAN');
        }
      });
    });

    describe('concurrency across processes (two clients on one database)', () => {
      it('ids are never repeated under concurrent writers', async () => {
        const a = fresh();
        const b = fresh(a.db.databaseName);
        const ids = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).ids.next('ticket')));
        expect(new Set(ids).size).to.equal(200);
        expect(Math.max(...ids)).to.equal(200);
        expect(await a.ids.next('message:1')).to.equal(1);
      });
      it('one e-mail, whatever its case, is taken once; a group name likewise', async () => {
        const a = fresh();
        const b = fresh(a.db.databaseName);
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 === 0 ? a : b).users.insert(
              aUser({ id: (i + 1) as UserId, email: (i % 3 === 0 ? 'X@Y.COM' : 'x@y.com') as never }),
            ),
          ),
        );
        expect(results.filter((r) => r === 'ok')).to.have.length(1);
        expect(results.filter((r) => r === 'email_taken')).to.have.length(19);
        const groups = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? a : b).groups.insert(aGroup({ id: (i + 1) as GroupId, name: i % 2 === 0 ? 'Ops' : 'OPS' })),
          ),
        );
        expect(groups.filter((r) => r === 'ok')).to.have.length(1);
      });
      it('a refresh token is consumed once, every other concurrent use is a replay', async () => {
        const a = fresh();
        const b = fresh(a.db.databaseName);
        await a.tokens.save(aToken());
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).tokens.consume(aToken().hash, at)),
        );
        expect(results.filter((r) => r.status === 'consumed')).to.have.length(1);
        expect(results.filter((r) => r.status === 'reused')).to.have.length(19);
      });
      it('rate-limit hits are counted atomically by all processes', async () => {
        const a = fresh();
        const b = fresh(a.db.databaseName);
        const counts = await Promise.all(
          Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).rateLimits.hit('ip:1', at, 60_000)),
        );
        expect([...counts].sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 100 }, (_, i) => i + 1));
      });
      it('a stale versioned write changes nothing', async () => {
        const store = fresh();
        await store.tickets.insert(aTicket());
        expect(await store.tickets.update(aTicket({ subject: 'first', version: 2 }), 1)).to.equal(true);
        expect(await store.tickets.update(aTicket({ subject: 'stale', version: 2 }), 1)).to.equal(false);
        expect((await store.tickets.findById(1 as TicketId))?.subject).to.equal('first');
      });
    });

    describe('documents as stored', () => {
      it('times are BSON Dates, ranks and words are stored, a search sees a write at once', async () => {
        const store = fresh();
        const t = aTicket({ subject: 'Crème brûlée', state: 'closed', closedAt: at + 1 });
        await store.tickets.insert(t);
        const raw = await store.db.collection('tickets').findOne({ _id: 1 as never });
        expect(raw).to.deep.equal({ ...toTicketDocument(t) });
        expect(raw?.['createdAt']).to.be.instanceOf(Date);
        const page = await store.tickets.search(
          { ...noQueueConditions, states: null, customerId: null, words: ['creme'], closedSince: null },
          sortOf(),
          0,
          10,
        );
        expect(page.items.map((x) => x.id)).to.deep.equal([1]);
      });
    });

    describe('after close', () => {
      it('answers StoreUnavailableError', async () => {
        const store = fresh();
        await store.ensureIndexes();
        await store.close();
        expect(await store.users.count().catch((e: unknown) => e)).to.be.instanceOf(StoreUnavailableError);
      });
    });
  });
