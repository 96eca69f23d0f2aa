import { fuzzOperation, fuzzOperations, fuzzSettings, startFuzzer, type Fuzzer } from '../support/fuzz/run.js';

// Every operation of the served document, fuzzed over HTTPS on the in-memory store
// (support/fuzz/run.ts says what is generated and asserted). FUZZ_BUDGET=<requests> runs
// longer (the default keeps the suite near 30 s on two cores), FUZZ_SEED=<n> replays a run.

describe('fuzz: every operation of the OpenAPI document, every role, on the memory store', function () {
  this.timeout(180_000);
  const settings = fuzzSettings();
  let fuzzer: Fuzzer;
  let started = 0;

  before(async () => {
    started = Date.now();
    fuzzer = await startFuzzer({ STORE: 'memory' });
  });
  after(async () => {
    console.log(
      `  fuzz (memory): ${fuzzer.sent()} requests over ${fuzzOperations.length} operations in ${((Date.now() - started) / 1000).toFixed(1)} s; FUZZ_SEED=${settings.seed} FUZZ_BUDGET=${settings.budget}`,
    );
    await fuzzer.close();
  });

  fuzzOperations.forEach((op, index) => {
    it(`${op.name}: never a 5xx, every answer documented, a refused request changes nothing`, async () => {
      await fuzzOperation(fuzzer, op, index, settings);
    });
  });
});
