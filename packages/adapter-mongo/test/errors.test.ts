import { StoreUnavailableError } from '@support/application';
import { expect } from 'chai';
import { MongoNetworkError } from 'mongodb';
import { guard } from '../src/errors.js';
import { createMongoStore, MongoConfigurationError } from '../src/index.js';
import { databaseFromUrl, mongoClientOptions, resolveTimeouts } from '../src/options.js';

describe('errors: guard', () => {
  it('turns a driver outage into StoreUnavailableError, the driver error kept only as the cause', async () => {
    const cause = new MongoNetworkError('connect ECONNREFUSED 10.0.0.1:27017');
    const e: unknown = await guard(1000, () => Promise.reject(cause)).catch((x: unknown) => x);
    expect(e).to.be.instanceOf(StoreUnavailableError);
    expect((e as Error).message).to.equal('the data store is unavailable');
    expect((e as Error).cause).to.equal(cause);
  });
  it('answers by the deadline whatever the call does', async () => {
    const start = performance.now();
    const e: unknown = await guard(50, () => new Promise(() => undefined)).catch((x: unknown) => x);
    expect(e).to.be.instanceOf(StoreUnavailableError);
    expect(performance.now() - start).to.be.below(500);
  });
  it('lets bugs through as they are', async () => {
    const bug = new TypeError('bug');
    expect(await guard(1000, () => Promise.reject(bug)).catch((x: unknown) => x)).to.equal(bug);
  });
});

describe('options', () => {
  it('majority writes and reads, retries, and short timeouts from the two settings', () => {
    const t = resolveTimeouts({ url: 'mongodb://h', serverSelectionTimeoutMS: 2000, operationTimeoutMS: 3000 });
    expect(t).to.deep.equal({
      serverSelectionTimeoutMS: 2000,
      operationTimeoutMS: 3000,
      maxTimeMS: 2250,
      deadlineMs: 5250,
      pingDeadlineMs: 2250,
    });
    expect(mongoClientOptions(t)).to.deep.include({
      writeConcern: { w: 'majority', wtimeoutMS: 2250 },
      readConcern: { level: 'majority' },
      readPreference: 'primary',
      retryWrites: true,
      retryReads: true,
      serverSelectionTimeoutMS: 2000,
      connectTimeoutMS: 2000,
      socketTimeoutMS: 3000,
      waitQueueTimeoutMS: 3000,
    });
    expect(resolveTimeouts({ url: 'x' })).to.include({
      serverSelectionTimeoutMS: 5000,
      operationTimeoutMS: 10000,
      maxTimeMS: 9000,
    });
    // The server's "time limit reached" must arrive while the socket still waits for it.
    for (const operationTimeoutMS of [2, 40, 1000, 3000, 10_000, 600_000]) {
      const r = resolveTimeouts({ url: 'x', operationTimeoutMS });
      expect(r.maxTimeMS, String(operationTimeoutMS))
        .to.be.below(mongoClientOptions(r).socketTimeoutMS ?? 0)
        .and.to.be.above(0);
    }
  });
  it('takes the database from the URL path', () => {
    expect(databaseFromUrl('mongodb://127.0.0.1:27017/support?replicaSet=rs0')).to.equal('support');
    expect(databaseFromUrl('mongodb://u:p@a,b/x')).to.equal('x');
    expect(databaseFromUrl('mongodb://127.0.0.1:27017/?directConnection=true')).to.equal(null);
    expect(databaseFromUrl('mongodb://127.0.0.1')).to.equal(null);
  });
  it('a URL the driver cannot parse fails at construction; an unreachable one does not (no network is touched)', async () => {
    expect(() => createMongoStore({ url: 'http://nope' })).to.throw(
      MongoConfigurationError,
      /not a usable MongoDB connection string/,
    );
    const store = createMongoStore({ url: 'mongodb://127.0.0.1:1/x?replicaSet=rs0' });
    expect(store.db.databaseName).to.equal('x');
    await store.close();
  });
  it('a closed store answers "unavailable" and does not reconnect', async () => {
    const store = createMongoStore({ url: 'mongodb://127.0.0.1:1/x' });
    await store.close();
    const e: unknown = await store.users.count().catch((x: unknown) => x);
    expect(e).to.be.instanceOf(StoreUnavailableError);
    expect(await store.health.ping()).to.equal(false);
  });
});
