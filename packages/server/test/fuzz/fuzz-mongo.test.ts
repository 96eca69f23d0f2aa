import { randomBytes } from 'node:crypto';
import { fuzzOperation, fuzzOperations, fuzzSettings, startFuzzer, type Fuzzer } from '../support/fuzz/run.js';

// The same fuzz on the MongoDB store, where the Mongo suite runs: MONGO_URL names a mongod
// (a replica set: docs/mongodb.md); the fuzz uses a fresh database and drops it.
// Without MONGO_URL it does not run, says so in one line, and stays pending, never passed.

/** MONGO_URL with its database (the path) replaced: mongodb://h1,h2/old?x=y -> mongodb://h1,h2/fuzz_ab12?x=y. */
const withDatabase = (url: string, db: string): string =>
  url.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?/, `$1/${db}`);

describe('fuzz: every operation of the OpenAPI document, every role, on the MongoDB store', function () {
  this.timeout(600_000);
  const settings = fuzzSettings();
  const mongoUrl = process.env.MONGO_URL ?? '';
  let fuzzer: Fuzzer | null = null;
  let started = 0;

  before(async function () {
    if (mongoUrl === '') {
      console.warn(
        '\nMongoDB fuzz suite did NOT run: MONGO_URL is not set. Set MONGO_URL=mongodb://... to run it (see docs/mongodb.md).',
      );
      this.skip();
    }
    started = Date.now();
    // MONGO_WITHOUT_TTL goes through as given (scripts/ferretdb-run.mjs sets it for a server without TTL indexes).
    const withoutTtl = process.env.MONGO_WITHOUT_TTL;
    // The service's clock at the real time: the server's TTL monitor deletes by its own (startFuzzer).
    fuzzer = await startFuzzer(
      {
        STORE: 'mongo',
        MONGO_URL: withDatabase(mongoUrl, `fuzz_${randomBytes(6).toString('hex')}`),
        ...(withoutTtl === undefined ? {} : { MONGO_WITHOUT_TTL: withoutTtl }),
      },
      { realTime: true },
    );
  });
  after(async () => {
    if (fuzzer === null) return;
    console.log(
      `  fuzz (mongo): ${fuzzer.sent()} requests over ${fuzzOperations.length} operations in ${((Date.now() - started) / 1000).toFixed(1)} s; FUZZ_SEED=${settings.seed} FUZZ_BUDGET=${settings.budget}`,
    );
    const store = fuzzer.api.server.store as { db?: { dropDatabase(): Promise<unknown> } };
    await store.db?.dropDatabase();
    await fuzzer.close();
  });

  fuzzOperations.forEach((op, index) => {
    it(`${op.name}: never a 5xx, every answer documented, a refused request changes nothing`, async () => {
      if (fuzzer === null) throw new Error('no MongoDB for the fuzz');
      await fuzzOperation(fuzzer, op, index, settings);
    });
  });
});
