import type { Store } from '@support/application';
import * as testing from '@support/application/testing';
import type { MongoStore } from '../src/index.js';
import { freshStores, realMongo } from './support/real-mongo.js';

// The port contract suites of @support/application/testing, unchanged, on a real mongod:
// the very suites the memory adapter passes. Each store the suites ask for is a fresh
// database, dropped at the end. Without a mongod the block is skipped (pending) and
// support/real-mongo.ts prints the one line saying it did NOT run.

type ContractSuite = (name: string, makeStore: () => Store) => void;

const suites = Object.entries(testing as Record<string, unknown>).filter(
  (entry): entry is [string, ContractSuite] => typeof entry[1] === 'function' && /^describe\w*Contract$/.test(entry[0]),
);

describe('MongoDB store: port contract suites on a real mongod', function () {
  this.timeout(180_000);
  let stores: ReturnType<typeof freshStores> | null = null;

  before(async function () {
    const mongo = await realMongo();
    if (!mongo.available) this.skip();
    else stores = freshStores(mongo.url);
  });
  after(async () => {
    await stores?.cleanUp();
  });

  const makeStore = (): MongoStore => {
    if (stores === null) throw new Error('no mongod for the contract suites');
    return stores.make();
  };

  if (suites.length === 0) it('runs the port contract suites (none are exported by @support/application/testing yet)');
  for (const [, describeContract] of suites) describeContract('MongoDB', makeStore);
});
