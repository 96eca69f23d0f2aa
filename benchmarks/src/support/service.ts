// The service under test in its own process: the real entry point (as `pnpm start` runs it,
// resolved through @support/server's "./main" export), with a certificate this benchmark made
// and pins, on a port chosen here, its admin logged in. What it stores and how it is tuned come
// in `env`.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCertificate, type Certificate } from './cert.js';
import { httpsClient, type HttpsClient } from './https-client.js';
import { isRunning, startNode, type Started } from './processes.js';
import { login } from './seed.js';

/** The file `node` runs to start the service. */
export const serviceMain = fileURLToPath(import.meta.resolve('@support/server/main'));

export const adminEmail = 'admin@example.com';
export const adminPassword = 'bench-admin-password';

/** A port free right now (the service needs a number in PORT). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => {
        resolve(port);
      });
    });
  });

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Retries `attempt` (a value, or undefined for not yet) until it answers or the time is up. */
const until = async <T>(
  what: string,
  started: Started,
  attempt: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isRunning(started)) throw new Error(`the service exited while ${what}: ${started.stderrTail()}`);
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`the service was not ${what} within ${timeoutMs} ms: ${started.stderrTail()}`);
    await sleep(100);
  }
};

export interface ServiceOptions {
  /** Before `node` (taskset, from pinLoadGenerator); none by default. */
  readonly prefix?: readonly string[];
  /**
   * The certificate it serves; one is made in the service's temporary directory (which also
   * holds its DATA_DIR, removed at stop) when none is given.
   */
  readonly tls?: Certificate;
  /** Added to the service's clean environment (STORE, DATA_DIR, LOG_LEVEL, ...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Before the script (e.g. --cpu-prof). */
  readonly nodeArgs?: readonly string[];
  /** The service's entry point (another build's, to compare two versions); this workspace's by default. */
  readonly main?: string;
  /** 'pipe' to read its log lines from started.child.stdout; discarded by default. */
  readonly stdout?: 'pipe' | 'ignore';
  /** The client's connections (default 16). */
  readonly maxSockets?: number;
  /** How long it may take to listen (a large embedded store loads first); 60 s by default. */
  readonly startTimeoutMs?: number;
}

export interface Service {
  readonly started: Started;
  readonly port: number;
  readonly tls: Certificate;
  /** A keep-alive client pinned to the served certificate. */
  readonly http: HttpsClient;
  /** The admin's access token. */
  readonly token: string;
  /** From the spawn to its first answer (/healthz): the start, a load of the store included. */
  readonly startMs: number;
  /** Stops the process (SIGTERM, then SIGKILL), closes the client, removes what was made here. */
  readonly stop: () => Promise<void>;
}

export const startServiceProcess = async (options: ServiceOptions = {}): Promise<Service> => {
  // Its own directory: the certificate when none is given, and DATA_DIR (STORE=embedded).
  const made = mkdtempSync(join(tmpdir(), 'bench-service-'));
  process.on('exit', () => {
    rmSync(made, { recursive: true, force: true });
  });
  const tls = options.tls ?? (await writeCertificate(made));
  const port = await freePort();
  // A clean environment: nothing from the caller's shell (STORE, MONGO_URL, ...) leaks in.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    PORT: String(port),
    HOST: '127.0.0.1',
    STORE: 'memory',
    TLS_CERT_FILE: tls.certFile,
    TLS_KEY_FILE: tls.keyFile,
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    RATE_LIMIT: '1000000000',
    DATA_DIR: join(made, 'data'),
    ...options.env,
  };
  const spawned = performance.now();
  const started = startNode(options.prefix ?? [], [...(options.nodeArgs ?? []), options.main ?? serviceMain], {
    env,
    stdout: options.stdout ?? 'ignore',
  });
  const http = httpsClient({ port, ca: tls.cert, maxSockets: options.maxSockets ?? 16 });
  const stop = async () => {
    http.close();
    if (isRunning(started)) {
      started.child.kill('SIGTERM');
      const timer = setTimeout(() => started.child.kill('SIGKILL'), 10_000);
      await started.exited;
      clearTimeout(timer);
    }
    rmSync(made, { recursive: true, force: true });
  };
  try {
    await until(
      'listening',
      started,
      async () => ((await http.send({ path: '/healthz' })).status === 200 ? true : undefined),
      options.startTimeoutMs,
    );
    const startMs = performance.now() - spawned;
    // The first admin is created just after the port opens: retry the login until it exists.
    const token = await until('creating its admin', started, () => login(http, adminEmail, adminPassword));
    return { started, port, tls, http, token, startMs, stop };
  } catch (e) {
    await stop();
    throw e;
  }
};
