import { StoreUnavailableError, StoreWriteNotConfirmedError, type Store } from '@support/application';
import { expect } from 'chai';
import { MongoError, MongoTopologyClosedError } from 'mongodb';
import { createMongoStore, type MongoStore } from '../src/index.js';
import { resolveTimeouts } from '../src/options.js';
import { aTicket } from './support/builders.js';
import { everyOperation } from './support/every-operation.js';
import { fakeMongod, type FakeMongod } from './support/fake-mongod.js';
import { expectUnavailableWithin, measure, silentListener, type Outcome } from './support/outage.js';

// The real driver against a database that is not there, or that goes away: every operation
// of every port must reject with StoreUnavailableError within the configured timeouts (not
// hang), ping must answer false, and the store must recover by itself when the database
// returns.

const timeouts = { serverSelectionTimeoutMS: 1000, operationTimeoutMS: 1000 } as const;
const { deadlineMs, pingDeadlineMs } = resolveTimeouts({ url: '', ...timeouts });
/** Scheduling slack on a busy 2-core machine. */
const slack = 750;
const operationNames = Object.keys(everyOperation({} as Store));

/** Runs every operation (and ping) at once, each timed from its own start. */
const runAll = async (
  store: MongoStore,
  extra: Record<string, () => Promise<unknown>> = {},
): Promise<Map<string, Outcome>> => {
  const outcomes = new Map<string, Outcome>();
  const calls = { ...everyOperation(store), ...extra, 'health.ping': () => store.health.ping() };
  await Promise.all(Object.entries(calls).map(async ([name, call]) => outcomes.set(name, await measure(call))));
  return outcomes;
};

/**
 * `sentUnanswered`: writes outside a transaction whose effect the client relies on (errors.ts,
 * CallKind 'write'), sent on an open connection that never answered: the server may have
 * applied them, so they are "write not confirmed", not "unavailable".
 */
const itEveryOperationFails = (
  outcomes: () => Map<string, Outcome>,
  names: readonly string[],
  sentUnanswered: readonly string[] = [],
): void => {
  for (const name of names) {
    if (sentUnanswered.includes(name)) {
      it(`${name} (sent, never answered: it may have been applied) rejects with StoreWriteNotConfirmedError within ${deadlineMs} ms, or "unavailable" when it never left the pool`, () => {
        const o = outcomes().get(name);
        // On a busy machine the call may still wait for a connection when the deadline comes:
        // then nothing was sent (no driver error with RetryableWriteError behind it).
        const cause = (o?.error as Error | undefined)?.cause;
        const neverSent =
          o?.error instanceof StoreUnavailableError &&
          !(cause instanceof MongoError && cause.hasErrorLabel('RetryableWriteError'));
        if (!neverSent) expect(o?.error).to.be.instanceOf(StoreWriteNotConfirmedError);
        expect((o?.error as Error).message).to.not.match(/mongo|econn|127\.0\.0\.1/i);
        expect(o?.ms).to.be.below(deadlineMs + slack);
      });
      continue;
    }
    it(`${name} rejects with StoreUnavailableError within ${deadlineMs} ms`, () => {
      expectUnavailableWithin(outcomes().get(name), deadlineMs + slack);
    });
  }
  it(`health.ping answers false within ${pingDeadlineMs} ms`, () => {
    const o = outcomes().get('health.ping');
    expect(o?.error).to.equal(null);
    expect(o?.value).to.equal(false);
    expect(o?.ms).to.be.below(pingDeadlineMs + slack);
  });
};

describe('MongoDB outage, real driver', function () {
  this.timeout(20_000);

  const neverReachable = (title: string, url: () => string): void => {
    describe(`never reachable: ${title}`, () => {
      let store: MongoStore;
      let outcomes = new Map<string, Outcome>();
      before(async () => {
        store = createMongoStore({ url: url(), ...timeouts });
        outcomes = await runAll(store, { ensureIndexes: () => store.ensureIndexes() });
      });
      after(() => store.close());

      itEveryOperationFails(() => outcomes, [...operationNames, 'ensureIndexes']);

      it('tries to connect again on the next call (the driver alone would stay "topology closed" for good)', async () => {
        const again = await measure(() => store.users.count());
        expectUnavailableWithin(again, deadlineMs + slack);
        expect(again.ms, 'failed at once: no new connection attempt').to.be.above(
          timeouts.serverSelectionTimeoutMS * 0.8,
        );
        expect((again.error as Error).cause).to.not.be.instanceOf(MongoTopologyClosedError);
      });
    });
  };

  neverReachable('a closed port (mongodb://127.0.0.1:1)', () => 'mongodb://127.0.0.1:1/outage');

  let listener: Awaited<ReturnType<typeof silentListener>> | undefined;
  before(async () => {
    listener = await silentListener();
  });
  after(async () => listener?.close());
  neverReachable(
    'a listener that accepts and never answers',
    () => `mongodb://127.0.0.1:${String(listener?.port)}/outage?directConnection=true`,
  );

  describe('down at start, then up (a fake mongod that appears later)', () => {
    it('fails fast while the database is away, then connects, creates the indexes and serves, by itself', async () => {
      const fake = await fakeMongod();
      await fake.stop();
      const store = createMongoStore({ url: fake.url, ...timeouts });
      try {
        expectUnavailableWithin(await measure(() => store.users.count()), deadlineMs + slack);
        expect(await store.health.ping()).to.equal(false);
        await fake.start();
        const start = performance.now();
        while (!(await store.health.ping())) {
          expect(performance.now() - start, 'no recovery').to.be.below(5000);
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(await store.users.count()).to.equal(0);
        expect(fake.received).to.include.members(['createIndexes', 'aggregate']);
      } finally {
        await store.close();
        await fake.stop();
      }
    });
  });

  describe('connected, then gone (a fake mongod that answers, then fails)', () => {
    let fake: FakeMongod;
    let store: MongoStore;
    before(async () => {
      fake = await fakeMongod();
      store = createMongoStore({ url: fake.url, ...timeouts });
      await store.ensureIndexes();
      expect(await store.health.ping()).to.equal(true);
      // Slow answers to two rounds of every call at once fill the pool with connections, so
      // that each call below meets the outage on its own connection (not in the pool's queue).
      fake.delayMs = 300;
      const warmUp = [...Object.values(everyOperation(store)), ...Object.values(everyOperation(store))];
      await Promise.all(warmUp.map((call) => call().catch(() => null)));
      fake.delayMs = 0;
    });
    after(async () => {
      await store.close();
      await fake.stop();
    });

    describe('the server stops answering (connections stay open)', () => {
      let outcomes = new Map<string, Outcome>();
      before(async () => {
        fake.mode = 'silent';
        outcomes = await runAll(store);
        fake.mode = 'answer';
      });
      itEveryOperationFails(() => outcomes, operationNames, ['tokens.consume']);
    });

    describe('the port closes', () => {
      let outcomes = new Map<string, Outcome>();
      before(async () => {
        await fake.stop();
        outcomes = await runAll(store);
      });
      itEveryOperationFails(() => outcomes, operationNames);
    });

    describe('the server returns', () => {
      it('ping answers true again within a few seconds, and reads and writes go through', async () => {
        await fake.start();
        const start = performance.now();
        while (!(await store.health.ping())) {
          expect(performance.now() - start, 'no recovery').to.be.below(5000);
          await new Promise((r) => setTimeout(r, 100));
        }
        const before = fake.received.length;
        expect(await store.users.count()).to.equal(0);
        await store.tickets.insert(aTicket());
        expect(fake.received.slice(before)).to.include.members(['aggregate', 'insert']);
      });
    });
  });
});
