import { StoreUnavailableError } from '@support/application';
import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';

export interface Outcome {
  readonly error: unknown;
  readonly ms: number;
  readonly value?: unknown;
}

/** Runs a call and records how it ended and how long it took. */
export const measure = async (call: () => Promise<unknown>): Promise<Outcome> => {
  const start = performance.now();
  try {
    const value = await call();
    return { error: null, value, ms: performance.now() - start };
  } catch (error) {
    return { error, ms: performance.now() - start };
  }
};

/** The rejection a caller must see: the application's error, no driver text, in time. */
export const expectUnavailableWithin = (o: Outcome | undefined, ms: number): void => {
  expect(o, 'the call was not run').to.not.equal(undefined);
  const { error, ms: took } = o!;
  expect(error, `resolved instead of rejecting (with ${JSON.stringify(o!.value)})`).to.be.instanceOf(
    StoreUnavailableError,
  );
  const message = (error as Error).message;
  expect(message).to.not.match(/mongo|econn|127\.0\.0\.1|timed out after|selection/i);
  expect(took, `took ${Math.round(took)} ms`).to.be.below(ms);
};

/** A TCP listener that accepts connections and never answers a byte. */
export const silentListener = async (): Promise<{ port: number; close(): Promise<void> }> => {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return {
    port: address.port,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
};
