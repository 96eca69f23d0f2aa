import type { Application } from '@support/application';
import { expect } from 'chai';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpPipeline } from '../src/app.js';
import type { HttpLogger } from '../src/options.js';

// The pipeline is mounted in one place (pipeline/mount.ts) for both entries: Koa runs its
// middleware, the short lane runs `stages` then the route's handler. A middleware that Koa
// ran and the lane did not would make the two entries answer differently.

/** Enough of the application for a refused request: plain HTTP is counted (rate limit), then 403. */
const application = {
  rateLimit: { consume: () => Promise.resolve({ allowed: true, limit: 100, remaining: 99, resetSeconds: 60 }) },
} as unknown as Application;

interface Logged {
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>> | undefined;
}

const pipelineWith = (
  shortLane: boolean,
): { pipeline: ReturnType<typeof httpPipeline>; errors: Logged[]; infos: Logged[] } => {
  const errors: Logged[] = [];
  const infos: Logged[] = [];
  const logger: HttpLogger = {
    info: (message, fields) => infos.push({ message, fields }),
    error: (message, fields) => errors.push({ message, fields }),
  };
  const pipeline = httpPipeline(application, {
    publicUrl: 'https://localhost',
    trustProxy: false,
    logger,
    shortLane,
    accessLog: false,
  });
  return { pipeline, errors, infos };
};

describe('mounting the pipeline', () => {
  it('Koa runs the stages, then the router and its 405/501 answers: nothing else', () => {
    const { pipeline } = pipelineWith(true);
    const { koa, stages, router } = pipeline;
    expect(stages.length).to.be.greaterThan(5);
    expect(koa.middleware, 'a middleware added to Koa outside `stages` is not run on the short lane').to.have.length(
      stages.length + 2,
    );
    koa.middleware.slice(0, stages.length).forEach((m, i) => expect(m, `stage ${i}`).to.equal(stages[i]));
    expect((koa.middleware[stages.length] as { router?: unknown }).router, "the router's dispatch").to.equal(router);
  });

  const socketErrors = [
    // Something of ours failed under the write: an error, with what it said.
    { what: 'a socket error', error: () => new Error('write ECONNRESET'), level: 'error', message: 'unhandled' },
    // The client reset its connection (Node's code says so): not a fault of the service.
    {
      what: 'a connection the client reset',
      error: () => Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }),
      level: 'info',
      message: 'connection lost',
    },
  ] as const;
  for (const shortLane of [true, false])
    for (const kind of socketErrors)
      it(`${kind.what} while the answer is written is logged at ${kind.level} (${shortLane ? 'the short lane' : 'the long way'})`, async () => {
        const { pipeline, errors, infos } = pipelineWith(shortLane);
        expect(pipeline.lane.match('GET', '/v1/tickets/1')).to.not.equal(null);
        const listener = pipeline.listener();
        // The socket fails as the answer is handed to it (as when the client resets its connection).
        const server: Server = createServer((req, res) => {
          const end = res.end.bind(res) as (...args: unknown[]) => unknown;
          res.end = ((...args: unknown[]) => {
            res.socket?.destroy(kind.error());
            return end(...args);
          }) as typeof res.end;
          void listener(req, res);
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
          const { port } = server.address() as AddressInfo;
          await new Promise<void>((resolve) => {
            const req = request({ port, host: '127.0.0.1', path: '/v1/tickets/1' }, (res) =>
              res.resume().on('close', resolve),
            );
            req.on('error', () => {
              resolve();
            });
            req.end();
          });
          const logged = kind.level === 'error' ? errors : infos;
          const other = kind.level === 'error' ? infos : errors;
          for (let i = 0; i < 50 && logged.length === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
          expect(logged).to.deep.equal([{ message: kind.message, fields: { detail: kind.error().message } }]);
          expect(other, 'nothing at the other level').to.deep.equal([]);
        } finally {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        }
      });
});
