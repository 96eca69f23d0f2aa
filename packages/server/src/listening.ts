import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ConfigError } from './config.js';

// Opening and closing the listening sockets: a port that cannot be listened on is a
// ConfigError naming its variable; a close lets requests in flight finish, up to a grace.

/** Listens on port and host; resolves with the port bound (PORT=0 picks one). */
export const listen = (
  server: HttpServer | HttpsServer,
  port: number,
  host: string,
  variable: 'PORT' | 'HTTP_PORT',
): Promise<number> =>
  new Promise((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException): void => {
      reject(new ConfigError(`${variable} ${port} cannot be listened on at ${host} (HOST): ${e.code ?? e.message}`));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    });
  });

/** Stops accepting; requests in flight may finish for graceMs, then every connection is cut. */
export const closeGracefully = (server: HttpServer | HttpsServer, graceMs: number): Promise<void> =>
  new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    const cut = setTimeout(() => {
      server.closeAllConnections();
    }, graceMs);
    cut.unref();
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    // Keep-alive connections with no request in flight would hold close() open.
    server.closeIdleConnections();
  });
