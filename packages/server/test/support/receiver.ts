import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A webhook receiver on 127.0.0.1 for the HTTP tests: it keeps every request it gets (the
// failed attempts too) and answers as the test tells it: a status, never (hangs), or by
// resetting the connection.

export interface Received {
  readonly headers: IncomingHttpHeaders;
  /** The body as sent, byte for byte (what the signature covers). */
  readonly body: string;
  readonly json: Record<string, unknown>;
}

export type Behaviour = { readonly status: number; readonly delayMs?: number } | 'hang' | 'reset';

export interface Receiver {
  /** http://127.0.0.1:<port>/hook */
  readonly url: string;
  readonly received: Received[];
  behave(b: Behaviour): void;
  /** Resolves once `count` requests have arrived in all; fails after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Polls `probe` every 20 ms until it answers true; fails naming `what` after `timeoutMs`. */
export const eventually = async (
  what: string,
  probe: () => boolean | Promise<boolean>,
  timeoutMs = 5_000,
): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

export const startReceiver = async (initial: Behaviour = { status: 200 }): Promise<Receiver> => {
  let behaviour = initial;
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body, json: JSON.parse(body) as Record<string, unknown> });
      const b = behaviour;
      if (b === 'hang') {
        hanging.add(res);
        return;
      }
      if (b === 'reset') {
        req.socket.resetAndDestroy();
        return;
      }
      setTimeout(() => {
        res.writeHead(b.status, { 'Content-Type': 'text/plain' }).end(`answered ${b.status}`);
      }, b.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    behave: (b) => {
      behaviour = b;
    },
    waitFor: async (count, timeoutMs = 5_000) => {
      await eventually(`${count} deliveries (got ${received.length})`, () => received.length >= count, timeoutMs);
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
};
