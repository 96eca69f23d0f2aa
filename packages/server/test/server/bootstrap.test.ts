import type { HttpLogger } from '@support/adapter-http-koa';
import { createMemoryStore } from '@support/adapter-memory';
import { expect } from 'chai';
import type { Container } from 'inversify';
import { configFromEnv, startServer, TYPES, type RunningServer, type ServerStore } from '../../src/index.js';
import { plainHasher } from '../support/harness.js';
import { pinnedRequest } from './child.js';

/** A memory store whose user count fails (as an unreachable database would) until `recover()`. */
const flakyStore = (): { store: ServerStore; recover: () => void; attempts: () => number } => {
  const inner = createMemoryStore();
  let down = true;
  let attempts = 0;
  const users = new Proxy(inner.users, {
    get: (target, key) => {
      if (key === 'count') {
        return () => {
          attempts += 1;
          return down ? Promise.reject(new Error('store unreachable')) : target.count();
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    store: { ...inner, users },
    recover: () => {
      down = false;
    },
    attempts: () => attempts,
  };
};

const quiet: HttpLogger = { info: () => undefined, error: () => undefined };

/** The real wiring with the flaky store, a cheap hasher and a logger of the test's choosing. */
const rebound =
  (store: ServerStore, logger: HttpLogger = quiet) =>
  (c: Container): void => {
    c.rebindSync(TYPES.Store).toConstantValue(store);
    c.rebindSync(TYPES.PasswordHasher).toConstantValue(plainHasher);
    c.rebindSync(TYPES.Logger).toConstantValue(logger);
  };

const until = async (what: string, ok: () => boolean, ms = 5_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('server: the first admin when the store is unreachable at start', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('creates the admin once the store answers and hands over the generated password, which logs in', async () => {
    const flaky = flakyStore();
    const created: { email: string; password: string | null }[] = [];
    const logs: string[] = [];
    server = await startServer(configFromEnv({ PORT: '0', STORE: 'memory' }), {
      rebind: rebound(flaky.store, {
        info: (m, f) => logs.push(JSON.stringify({ m, ...f })),
        error: (m, f) => logs.push(JSON.stringify({ m, ...f })),
      }),
      adminRetryMs: 20,
      shutdownGraceMs: 500,
      onFirstAdminCreated: (email, password) => created.push({ email, password }),
    });
    expect(server.generatedAdminPassword).to.equal(null);
    await until('a few retries', () => flaky.attempts() >= 3);
    expect(created).to.deep.equal([]);
    flaky.recover();
    await until('the admin', () => created.length > 0);
    const attemptsAtCreation = flaky.attempts();
    expect(created).to.have.length(1);
    expect(created[0]!.email).to.equal('admin@example.com');
    const password = created[0]!.password!;
    expect(password).to.match(/^[A-Za-z0-9_-]{24}$/);
    for (const line of logs) expect(line).not.to.include(password);
    expect(logs.some((l) => l.includes('first admin created'))).to.equal(true);

    const login = await pinnedRequest(server.port, server.cert, 'POST', '/v1/oauth/token', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: 'admin@example.com', password }),
    });
    expect(login.status, login.text).to.equal(200);
    // It stops retrying once done.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(flaky.attempts()).to.equal(attemptsAtCreation);
  });

  it('answers /readyz 503 (50302, naming the first admin) until the admin exists, /healthz 200 meanwhile', async () => {
    const flaky = flakyStore();
    server = await startServer(configFromEnv({ STORE: 'memory', PORT: '0', ADMIN_PASSWORD: 'boss-password-1' }), {
      rebind: rebound(flaky.store),
      adminRetryMs: 20,
      shutdownGraceMs: 500,
    });
    const s = server;
    const get = (path: string) => pinnedRequest(s.port, s.cert, 'GET', path);
    const waiting = await get('/readyz');
    expect(waiting.status).to.equal(503);
    expect(waiting.headers['retry-after']).to.equal('1');
    const body = JSON.parse(waiting.text) as { code: number; description: string };
    expect(body.code).to.equal(50302);
    expect(body.description).to.include('first admin');
    expect((await get('/healthz')).status).to.equal(200);
    flaky.recover();
    let ready = await get('/readyz');
    for (let i = 0; ready.status !== 200 && i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ready = await get('/readyz');
    }
    expect(ready.status, ready.text).to.equal(200);
    const login = await pinnedRequest(s.port, s.cert, 'POST', '/v1/oauth/token', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: 'admin@example.com', password: 'boss-password-1' }),
    });
    expect(login.status, login.text).to.equal(200);
  });

  it('with ADMIN_PASSWORD reports the creation without a password', async () => {
    const flaky = flakyStore();
    const created: { email: string; password: string | null }[] = [];
    server = await startServer(
      configFromEnv({ PORT: '0', STORE: 'memory', ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'boss-password-1' }),
      {
        rebind: rebound(flaky.store),
        adminRetryMs: 20,
        shutdownGraceMs: 500,
        onFirstAdminCreated: (email, password) => created.push({ email, password }),
      },
    );
    flaky.recover();
    await until('the admin', () => created.length > 0);
    expect(created).to.deep.equal([{ email: 'boss@example.com', password: null }]);
  });

  it('stops retrying when the server is closed', async () => {
    const flaky = flakyStore();
    const started = await startServer(configFromEnv({ PORT: '0', STORE: 'memory' }), {
      rebind: rebound(flaky.store),
      adminRetryMs: 20,
      shutdownGraceMs: 500,
    });
    await until('a retry', () => flaky.attempts() >= 2);
    await started.close();
    const after = flaky.attempts();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(flaky.attempts()).to.be.at.most(after + 1);
  });
});
