import { portContractSuites } from '@support/application/testing';
import type { MongoStore } from '../src/index.js';
import { freshStores, realEngines } from './support/real-mongo.js';

// The port contract suites, unchanged, on a real server: the same list
// (portContractSuites) the memory adapter runs, so a suite added there runs on both stores.
// Each store the suites ask for is an empty database: made once with every collection and
// index, emptied after each test for a later one (freshStores: a new database's indexes take
// about 25 s on DocumentDB), all dropped at the end. Without a server the block is skipped
// (pending) and support/real-mongo.ts prints the one line saying it did NOT run.

for (const engine of realEngines())
  describe(`MongoDB store: port contract suites on a real server (${engine.name})`, function () {
    this.timeout(180_000);
    let stores: ReturnType<typeof freshStores> | null = null;

    before(async function () {
      const mongo = await engine.resolve();
      if (!mongo.available) {
        this.skip();
        return;
      }
      stores = freshStores(mongo.url);
      await stores.prepare(3);
    });
    afterEach(async () => {
      await stores?.recycle();
    });
    after(async () => {
      await stores?.cleanUp();
    });

    const makeStore = (): MongoStore => {
      if (stores === null) throw new Error('no mongod for the contract suites');
      return stores.make();
    };

    for (const describeContract of portContractSuites) describeContract('MongoDB', makeStore);
  });
