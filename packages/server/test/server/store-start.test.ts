import { createMemoryStore } from '@support/adapter-memory';
import { StoreUnavailableError } from '@support/application';
import { expect } from 'chai';
import { configFromEnv, startServer, TYPES, type RunningServer, type ServerStore } from '../../src/index.js';
import { plainHasher } from '../support/harness.js';

// The start asks the store to prepare itself (Mongo: topology, indexes, unfinished writes):
// a refusal stops the start with the store's one-line message, warnings are logged and kept
// for the banner, and an unreachable store lets the service start and prepares it later.

const withStart = (start: () => Promise<{ readonly warnings: readonly string[] }>): ServerStore => ({
  ...createMemoryStore(),
  start,
});

describe('server: preparing the store at start', () => {
  let server: RunningServer | undefined;
  const logs: string[] = [];
  const logger = { info: (m: string) => logs.push(`info ${m}`), error: (m: string) => logs.push(`error ${m}`) };
  afterEach(async () => {
    await server?.close();
    server = undefined;
    logs.length = 0;
  });
  const start = (store: ServerStore) =>
    startServer(configFromEnv({ PORT: '0', STORE: 'memory' }), {
      rebind: (c) => {
        c.rebindSync(TYPES.Store).toConstantValue(store);
        c.rebindSync(TYPES.PasswordHasher).toConstantValue(plainHasher);
        c.rebindSync(TYPES.Logger).toConstantValue(logger);
      },
      adminRetryMs: 20,
      shutdownGraceMs: 200,
    });

  it('a refusal stops the start with its one-line message (main prints it after "could not start:")', async () => {
    const line =
      'MongoDB index tickets_live_id on tickets cannot be created: an index with the same keys already exists (IndexOptionsConflict 85)';
    const refused: unknown = await start(withStart(() => Promise.reject(new Error(line)))).catch((e: unknown) => e);
    expect((refused as Error).message).to.equal(line);
  });

  it('warnings are logged at error level and kept for the banner', async () => {
    const warning = 'MongoDB is a standalone server, not a replica set: retryable writes are off';
    server = await start(withStart(() => Promise.resolve({ warnings: [warning] })));
    expect(server.storeWarnings).to.deep.equal([warning]);
    expect(logs).to.include(`error store warning: ${warning}`);
  });

  it('an unreachable store does not stop the start; later attempts log a refusal, then readiness', async () => {
    let attempt = 0;
    server = await start(
      withStart(() => {
        attempt += 1;
        if (attempt === 1) return Promise.reject(new StoreUnavailableError());
        if (attempt === 2) return Promise.reject(new Error('MongoDB index x on y cannot be created: reasons'));
        return Promise.resolve({ warnings: [] });
      }),
    );
    expect(logs.some((l) => l.startsWith('error store unavailable at start'))).to.equal(true);
    const until = Date.now() + 5_000;
    while (!logs.includes('info store ready') && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(logs).to.include('error store refused: MongoDB index x on y cannot be created: reasons');
    expect(logs).to.include('info store ready');
  });
});
