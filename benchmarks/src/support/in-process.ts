// The service in this process (the composition root as main.js builds it, memory store unless
// `env` says otherwise, an ephemeral HTTPS port, its log silenced), with a client pinned to the
// certificate it serves and its admin logged in. For benchmarks that also reach the running
// application (server.app) or time the client and server side by side.
import { configFromEnv, startServer, TYPES, type RunningServer } from '@support/server';
import { httpsClient, type HttpsClient } from './https-client.js';
import { login } from './seed.js';
import { adminEmail, adminPassword } from './service.js';

export interface InProcess {
  readonly server: RunningServer;
  readonly http: HttpsClient;
  /** The admin's access token. */
  readonly token: string;
  /** A client of the same server with its own connections (a closed loop's). */
  readonly client: (maxSockets: number, discardBodies?: boolean) => HttpsClient;
  readonly close: () => Promise<void>;
}

export interface InProcessOptions {
  /** Settings over PORT=0, STORE=memory, the admin's and a rate limit nobody reaches. */
  readonly env?: Readonly<Record<string, string>>;
  /** Print the service's error log lines (on stderr); silent by default. */
  readonly logErrors?: boolean;
}

export const startInProcess = async ({ env = {}, logErrors = false }: InProcessOptions = {}): Promise<InProcess> => {
  const logger = {
    info: () => undefined,
    error: (message: unknown, fields?: unknown) => {
      if (logErrors) console.error(message, fields);
    },
  };
  const server = await startServer(
    configFromEnv({
      PORT: '0',
      STORE: 'memory',
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      RATE_LIMIT: '100000000',
      ...env,
    }),
    {
      rebind: (c) => {
        c.rebindSync(TYPES.Logger).toConstantValue(logger);
      },
      shutdownGraceMs: 1_000,
    },
  );
  const client = (maxSockets: number, discardBodies = false) =>
    httpsClient({ port: server.port, ca: server.cert, maxSockets, discardBodies });
  const http = client(4);
  const token = await login(http, adminEmail, adminPassword);
  return {
    server,
    http,
    token,
    client,
    close: async () => {
      http.close();
      await server.close();
    },
  };
};
