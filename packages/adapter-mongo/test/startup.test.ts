import { StoreUnavailableError } from '@support/application';
import type { UserId } from '@support/domain';
import { expect } from 'chai';
import { collectionNames } from '../src/collections.js';
import { createMongoStore, MongoStartupError, type MongoStore } from '../src/index.js';
import { TransactionsUnavailableError } from '../src/transactions.js';
import { aTicket } from './support/builders.js';
import { fakeMongod, type FakeMongod } from './support/fake-mongod.js';
import { measure } from './support/outage.js';

// The start against the real driver and a fake mongod: the topology it reports, an index
// the server refuses (one line naming the index and the reason, the start stops), readiness
// only once the indexes exist, and an unreachable database that is not a refusal.

const timeouts = { serverSelectionTimeoutMS: 1000, operationTimeoutMS: 1000 } as const;

describe('start: topology, indexes, readiness', function () {
  this.timeout(30_000);
  let fake: FakeMongod;
  let store: MongoStore | null = null;
  beforeEach(async () => {
    fake = await fakeMongod();
  });
  afterEach(async () => {
    await store?.close();
    store = null;
    await fake.stop();
  });
  const open = (extra: { allowStandalone?: boolean } = {}): MongoStore =>
    (store = createMongoStore({ url: fake.url, ...timeouts, ...extra }));

  it('a replica set: ready, every index created, nothing to warn about', async () => {
    expect(await open().start()).to.deep.equal({ topology: 'replica set', warnings: [], repaired: 0 });
    expect(fake.received.filter((c) => c === 'createIndexes').length).to.be.above(5);
    expect(await store?.health.ping()).to.equal(true);
  });

  it('every collection is created at start, events and counters included (none is left to a first transaction), and the feed counter is seeded', async () => {
    await open().start();
    const created = fake.commands.filter((c) => 'create' in c).map((c) => c['create'] as unknown);
    expect(created).to.have.members(Object.values(collectionNames));
    expect(created.indexOf('events'), 'before the first write could need it').to.be.at.least(0);
    // By an insert (a duplicate key means another start made it), never an upsert (counters.ts).
    const seeded = fake.commands.find((c) => c['insert'] === 'counters');
    expect(seeded?.['documents']).to.deep.equal([{ _id: 'events', seq: 0 }]);
    expect(fake.commands.some((c) => c['update'] === 'counters')).to.equal(false);
  });

  it('a feed counter that exists already (a duplicate key on its insert: an earlier start, another process) is no failure', async () => {
    fake.answers.set('insert', {
      ok: 1,
      n: 0,
      writeErrors: [
        { index: 0, code: 11000, errmsg: 'E11000 duplicate key error collection: support.counters index: _id_' },
      ],
    });
    expect((await open().start()).topology).to.equal('replica set');
    expect(fake.commands.filter((c) => c['insert'] === 'counters')).to.have.length(1);
  });

  it('a collection that exists already (48 NamespaceExists: an earlier start, another process) is no failure', async () => {
    fake.answers.set('create', { ok: 0, code: 48, codeName: 'NamespaceExists', errmsg: 'fake mongod: exists' });
    expect((await open().start()).topology).to.equal('replica set');
  });

  it('a standalone mongod is refused with one line naming what it lacks (transactions, retryable writes) and MONGO_ALLOW_STANDALONE; requests answer "unavailable", readiness is false', async () => {
    fake.setName = null;
    const s = open();
    const refused: unknown = await s.start().catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(MongoStartupError);
    expect((refused as Error).message).to.match(
      /standalone.*transactions.*retryable writes.*MONGO_ALLOW_STANDALONE=true/,
    );
    expect((refused as Error).message).to.not.include('\n');
    expect(fake.received, 'no index is built on a refused server').to.not.include('createIndexes');
    expect((await measure(() => s.users.findById(1 as UserId))).error).to.be.instanceOf(StoreUnavailableError);
    expect(await s.health.ping()).to.equal(false);
  });

  it('a standalone mongod accepted by MONGO_ALLOW_STANDALONE=true starts with a warning saying retryable writes are off', async () => {
    fake.setName = null;
    const report = await open({ allowStandalone: true }).start();
    expect(report.topology).to.equal('standalone');
    expect(report.warnings).to.have.length(1);
    expect(report.warnings[0]).to.match(/standalone.*retryable writes are off/);
  });

  it("on an accepted standalone the service is read-only: a write of the feed's resources is refused before anything is sent, reads work", async () => {
    fake.setName = null;
    const s = open({ allowStandalone: true });
    const report = await s.start();
    expect(report.warnings[0]).to.match(/READ-ONLY/);
    const before = fake.received.length;
    const refused: unknown = await s.tickets.insert(aTicket()).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(TransactionsUnavailableError);
    expect((refused as Error).message).to.match(/standalone.*transaction.*replica set/);
    const unassign = [{ op: 'unassignUser', userId: 10 as UserId, now: 1 }] as const;
    expect(await s.users.delete(10 as UserId, 1, undefined, unassign).catch((e: unknown) => e)).to.be.instanceOf(
      TransactionsUnavailableError,
    );
    const writes = fake.received
      .slice(before)
      .filter((c) => ['insert', 'update', 'delete', 'findAndModify', 'commitTransaction'].includes(c));
    expect(writes, 'nothing sent, not even the journal').to.deep.equal([]);
    expect(await s.users.findById(1 as UserId)).to.equal(null);
  });

  const refusals: ReadonlyArray<readonly [number, string, RegExp]> = [
    [85, 'IndexOptionsConflict', /same keys already exists under another name/],
    [86, 'IndexKeySpecsConflict', /this name already exists with other keys/],
    [11000, 'DuplicateKey', /duplicate values of its key/],
    [13, 'Unauthorized', /not allowed to create indexes/],
  ];
  for (const [code, codeName, reason] of refusals) {
    it(`an index refused with ${code} ${codeName} stops the start with one line naming the index and the reason; requests answer "unavailable", never 500`, async () => {
      fake.answers.set('createIndexes', { ok: 0, code, codeName, errmsg: `fake mongod: ${codeName}` });
      const s = open();
      const refused: unknown = await s.start().catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(MongoStartupError);
      const message = (refused as Error).message;
      expect(message).to.match(/^MongoDB index tickets_live_id on tickets cannot be created: /);
      expect(message).to.match(reason);
      expect(message).to.include(`(${codeName} ${code})`);
      expect(message).to.not.include('\n');
      const request = await measure(() => s.users.findById(1 as UserId));
      expect(request.error).to.be.instanceOf(StoreUnavailableError);
      expect(await s.health.ping()).to.equal(false);
    });
  }

  it('not ready until the indexes exist: while they are built, readiness is false and requests answer "unavailable" in time', async () => {
    // Each collection's build in turn (startup.ts): twelve of them stay within the test's time.
    fake.delays.set('createIndexes', 1_500);
    const s = open();
    const starting = s.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(await s.health.ping()).to.equal(false);
    const during = await measure(() => s.users.findById(1 as UserId));
    expect(during.error).to.be.instanceOf(StoreUnavailableError);
    expect(during.ms).to.be.below(2_250 + 750);
    await starting;
    expect(await s.health.ping()).to.equal(true);
    expect(await s.users.findById(1 as UserId)).to.equal(null);
  });

  it('an unreachable database is not a refusal: the start rejects with "unavailable" and the store prepares itself when it answers', async () => {
    await fake.stop();
    const s = open();
    expect(await s.start().catch((e: unknown) => e)).to.be.instanceOf(StoreUnavailableError);
    await fake.start();
    const start = performance.now();
    while (!(await s.health.ping())) {
      expect(performance.now() - start, 'never ready').to.be.below(10_000);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(fake.received).to.include('createIndexes');
  });
});
