import { createEmbeddedStore } from '@support/adapter-embedded';
import type { HttpLogger } from '@support/adapter-http-koa';
import type { PasswordHasher } from '@support/application';
import { expect } from 'chai';
import { request as httpsRequest } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv, startServer, TYPES, type RunningServer } from '../../src/index.js';
import { startupSteps } from '../../src/startup.js';
import { plainHasher } from '../support/harness.js';
import { pinnedRequest, type ChildAnswer } from './child.js';

// Contract §1: /readyz is 200 only once every start-up step is done. Schemathesis found /readyz
// 200 before the first admin existed (its argon2id hash is computed after listen): a password
// grant sent at once failed invalid_grant in 2 starts of 3.

const quiet: HttpLogger = { info: () => undefined, error: () => undefined };

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => {
        resolve(typeof address === 'object' && address !== null ? address.port : 0);
      });
    });
  });

describe('server: readiness waits for every start-up step', () => {
  it('counts steps by name until each says it is done (twice: once)', () => {
    const steps = startupSteps();
    const store = steps.begin('store preparation');
    const admin = steps.begin('first admin');
    expect(steps.pending()).to.deep.equal(['store preparation', 'first admin']);
    admin();
    admin();
    expect(steps.pending()).to.deep.equal(['store preparation']);
    store();
    expect(steps.pending()).to.deep.equal([]);
  });

  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("answers /readyz 503 while the first admin's password is hashed, then 200, and a grant sent at once succeeds", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowHasher: PasswordHasher = {
      hash: async (p) => {
        await gate;
        return plainHasher.hash(p);
      },
      verify: (h, p) => plainHasher.verify(h, p),
    };
    const port = await freePort();
    const starting = startServer(
      configFromEnv({ STORE: 'memory', PORT: String(port), ADMIN_PASSWORD: 'ready-password-1' }),
      {
        rebind: (c) => {
          c.rebindSync(TYPES.PasswordHasher).toConstantValue(slowHasher);
          c.rebindSync(TYPES.Logger).toConstantValue(quiet);
        },
        shutdownGraceMs: 500,
      },
    );
    // The certificate is known only once the start is done: read without verifying it here.
    const get = (path: string): Promise<ChildAnswer | null> =>
      new Promise((resolve) => {
        const req = httpsRequest({ host: '127.0.0.1', port, path, rejectUnauthorized: false, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: JSON.parse(text) as unknown });
          });
        });
        req.on('error', () => {
          resolve(null);
        });
        req.end();
      });
    let early = await get('/readyz');
    for (let i = 0; early === null && i < 500; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      early = await get('/readyz');
    }
    expect(early?.status, early?.text).to.equal(503);
    expect((early?.json as { code: number }).code).to.equal(50302);
    expect((await get('/healthz'))?.status).to.equal(200);
    release();
    server = await starting;
    const ready = await pinnedRequest(server.port, server.cert, 'GET', '/readyz');
    expect(ready.status, ready.text).to.equal(200);
    const login = await pinnedRequest(server.port, server.cert, 'POST', '/v1/oauth/token', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: 'admin@example.com', password: 'ready-password-1' }),
    });
    expect(login.status, login.text).to.equal(200);
  });

  it("says on /readyz, while it lasts, that the embedded store's heap is at 80% of its limit or more (still 200)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'readyz-heap-'));
    const heap = { share: 0.5 };
    try {
      const port = await freePort();
      server = await startServer(
        configFromEnv({ STORE: 'embedded', DATA_DIR: dir, PORT: String(port), ADMIN_PASSWORD: 'ready-password-1' }),
        {
          rebind: (c) => {
            c.rebindSync(TYPES.PasswordHasher).toConstantValue(plainHasher);
            c.rebindSync(TYPES.Logger).toConstantValue(quiet);
            c.rebindSync(TYPES.Store).toConstantValue(
              createEmbeddedStore({ dataDir: dir, heapShare: () => heap.share }),
            );
          },
          shutdownGraceMs: 500,
        },
      );
      const readyz = () => pinnedRequest(port, (server as RunningServer).cert, 'GET', '/readyz');
      const calm = await readyz();
      expect(calm.status, calm.text).to.equal(200);
      expect(calm.json).to.deep.equal({ status: 'ready' });
      heap.share = 0.86;
      const warned = await readyz();
      expect(warned.status, warned.text).to.equal(200);
      const body = warned.json as { status: string; warnings: string[] };
      expect(body.status).to.equal('ready');
      expect(body.warnings).to.have.length(1);
      expect(body.warnings[0]).to.match(
        /heap is at 80% of its limit or more; raise NODE_OPTIONS=--max-old-space-size.*\(86% of it in use\)/,
      );
      heap.share = 0.7;
      expect((await readyz()).json).to.deep.equal({ status: 'ready' });
    } finally {
      await server?.close();
      server = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
