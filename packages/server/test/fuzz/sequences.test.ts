import fc from 'fast-check';
import { startApi } from '../support/harness.js';
import { allCommands } from '../support/sequences/commands.js';
import { afterStep } from '../support/sequences/check.js';
import { newModel } from '../support/sequences/model.js';
import { fuzzSettings } from '../support/fuzz/run.js';

// Stateful sequences (fast-check model-based commands): random create/update/delete/read
// steps across tickets, messages, users and groups, each on a fresh service, with a model of
// what every read must answer checked after every step (support/sequences/check.ts): stale
// ETags, lists that miss a change, counts that drift, a change feed that does not match the
// step. SEQUENCE_RUNS=<n> runs more sequences (FUZZ_SEED replays, as for the fuzz).

const positive = (name: string, fallback: number): number => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
};

describe('sequences: writes and reads across tickets, messages, users and groups, checked against a model after every step', function () {
  this.timeout(300_000);
  const { seed } = fuzzSettings();
  const runs = positive('SEQUENCE_RUNS', 20);

  it(`${runs} sequences of up to 40 steps: every read as the model says, fresh ETags, exact lists and counts, the feed matching each step`, async () => {
    let started = Date.now();
    let steps = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.commands(allCommands, { maxCommands: 40, size: 'large' }), async (commands) => {
          // Tokens outlive the clock's steps (40 of up to 10 days); rate limits have their own tests.
          const api = await startApi(
            { RATE_LIMIT: '1000000000', TOKEN_TTL_S: String(365 * 86_400) },
            { keepAlive: true },
          );
          try {
            const admin = await api.adminToken();
            const model = newModel(api.clock.now());
            const real = { api, admin };
            await afterStep(model, real, []);
            await fc.asyncModelRun(() => ({ model, real }), commands);
            steps += [...commands].length;
          } finally {
            await api.close();
          }
        }),
        { seed, numRuns: runs, includeErrorInReport: true },
      );
    } catch (e) {
      throw new Error(`sequences failed; replay with FUZZ_SEED=${seed}\n${e instanceof Error ? e.message : String(e)}`);
    } finally {
      console.log(
        `  sequences: ${runs} runs, ${steps} steps in ${((Date.now() - started) / 1000).toFixed(1)} s; FUZZ_SEED=${seed}`,
      );
      started = 0;
    }
  });
});
