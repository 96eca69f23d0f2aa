import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled process entry (dist/test/server/child.js → dist/src/main.js). */
export const mainJs = fileURLToPath(new URL('../../src/main.js', import.meta.url));

/**
 * A clean environment for the child: nothing inherited from the test run (a MONGO_URL or
 * STORE set for the contract suites must not leak in), only PATH and what the test gives.
 */
export const childEnv = (env: Readonly<Record<string, string>>): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  // The volatile store unless the test chooses one: the default (embedded, ./data) would put every child on one directory.
  STORE: 'memory',
  ...env,
});

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface Child {
  readonly proc: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited (and its output has been read to the end). */
  readonly exited: Promise<Exit>;
  hasExited(): boolean;
}

/** `prefix`: a command the process runs under (e.g. `unshare --pid --fork`). */
export const spawnMain = (env: Readonly<Record<string, string>>, prefix: readonly string[] = []): Child => {
  const [command, ...args]: readonly string[] = [...prefix, process.execPath, mainJs];
  const proc = spawn(command ?? process.execPath, args, { env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let done = false;
  proc.stdout.setEncoding('utf8').on('data', (s: string) => {
    out += s;
  });
  proc.stderr.setEncoding('utf8').on('data', (s: string) => {
    err += s;
  });
  const exited = new Promise<Exit>((resolve) => {
    proc.on('close', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  return { proc, stdout: () => out, stderr: () => err, exited, hasExited: () => done };
};

const within = <A>(ms: number, what: string, promise: Promise<A>): Promise<A> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
    }, ms);
    promise.then(
      (a) => {
        clearTimeout(timer);
        resolve(a);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });

/** Runs the process to its end (bad configuration: it must stop by itself). */
export const runToExit = async (
  env: Readonly<Record<string, string>>,
  ms = 10_000,
  prefix: readonly string[] = [],
): Promise<Exit & { stdout: string; stderr: string }> => {
  const child = spawnMain(env, prefix);
  try {
    const exit = await within(ms, 'the process to exit', child.exited);
    return { ...exit, stdout: child.stdout(), stderr: child.stderr() };
  } finally {
    if (!child.hasExited()) child.proc.kill('SIGKILL');
  }
};

export interface Started extends Child {
  /** https://localhost:<port>, as printed. */
  readonly url: string;
  readonly port: number;
  /** The fingerprint the banner (stderr) printed. */
  readonly printedFingerprint: string;
  /** The generated admin password the banner printed, if any. */
  readonly printedPassword: string | null;
  /** The certificate actually served (PEM), pinned by every request below. */
  readonly servedCert: PeerCertificate;
  readonly servedPem: string;
  request(
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: string },
  ): Promise<ChildAnswer>;
  /** SIGTERM, then the exit. */
  stop(): Promise<Exit>;
}

export interface ChildAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  readonly json: unknown;
}

/** The certificate a TLS server on `port` presents. */
export const servedCertificate = (port: number): Promise<PeerCertificate> =>
  new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }, () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      resolve(cert);
    });
    socket.on('error', reject);
  });

const pemOf = (der: Buffer): string => new X509Certificate(der).toString();

/** Reads a whole response: status, headers, text, and the text parsed as JSON when it is JSON. */
export const readAnswer = (res: IncomingMessage): Promise<ChildAnswer> =>
  new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8').on('data', (s: string) => {
      text += s;
    });
    res.on('end', () => {
      let json: unknown = undefined;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
    });
    res.on('error', reject);
  });

/** Sends one request to a TLS server whose certificate is `ca` (verified, not blindly trusted). */
export const pinnedRequest = (
  port: number,
  ca: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<ChildAnswer> =>
  new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
    const req = httpsRequest(
      { host: '127.0.0.1', port, method, path, headers, ca, servername: 'localhost', agent: false },
      (res) => {
        readAnswer(res).then(resolve, reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });

const listening = /listening on (https:\/\/localhost:(\d+))/;

/** Spawns the process and waits for its banner on stderr (URL, fingerprint, admin line). */
export const startMain = async (
  env: Readonly<Record<string, string>>,
  ms = 15_000,
  prefix: readonly string[] = [],
): Promise<Started> => {
  const child = spawnMain({ PORT: '0', ...env }, prefix);
  try {
    await within(
      ms,
      'the banner',
      new Promise<void>((resolve, reject) => {
        const look = (): void => {
          // The banner (stderr) is written at once; the docs line is its last line.
          if (listening.test(child.stderr()) && /docs: \S+/.test(child.stderr())) {
            child.proc.stderr.off('data', look);
            resolve();
          }
        };
        child.proc.stderr.on('data', look);
        void child.exited.then((exit) => {
          reject(new Error(`the process exited (${JSON.stringify(exit)}) before listening: ${child.stderr()}`));
        });
        look();
      }),
    );
  } catch (e) {
    if (!child.hasExited()) child.proc.kill('SIGKILL');
    throw e;
  }
  const out = child.stderr();
  const match = listening.exec(out)!;
  const port = Number(match[2]);
  const printedFingerprint = /SHA-256 fingerprint ([0-9A-F]{2}(?::[0-9A-F]{2}){31})/.exec(out)?.[1] ?? '';
  const printedPassword = /password: (\S+)/.exec(out)?.[1] ?? null;
  const servedCert = await servedCertificate(port);
  const servedPem = pemOf(servedCert.raw);
  return {
    ...child,
    url: match[1]!,
    port,
    printedFingerprint,
    printedPassword,
    servedCert,
    servedPem,
    request: (method, path, options) => pinnedRequest(port, servedPem, method, path, options),
    stop: async () => {
      if (!child.hasExited()) child.proc.kill('SIGTERM');
      return within(15_000, 'the process to stop', child.exited);
    },
  };
};

/** Kills a child a test left running (after hooks). */
export const reap = async (child: Child | undefined): Promise<void> => {
  if (child === undefined || child.hasExited()) return;
  child.proc.kill('SIGKILL');
  await child.exited;
};

/** POST /v1/oauth/token with a JSON body. */
export const tokenRequest = (child: Started, body: Record<string, string>): Promise<ChildAnswer> =>
  child.request('POST', '/v1/oauth/token', {
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/**
 * A token for the bootstrap admin (ADMIN_EMAIL, admin@example.com unless given) whose password is
 * `password`; a login that fails throws with the answer, so a test never goes on with no token.
 */
export const adminToken = async (child: Started, password: string, email = 'admin@example.com'): Promise<string> => {
  const login = await tokenRequest(child, { grant_type: 'password', username: email, password });
  const token = (login.json as { access_token?: unknown } | undefined)?.access_token;
  if (login.status !== 200 || typeof token !== 'string')
    throw new Error(`the admin's login answered ${String(login.status)}: ${login.text}`);
  return token;
};

/**
 * startMain (30 s for the start), then the bootstrap admin's login with env's ADMIN_PASSWORD:
 * the process and a token. A login that fails stops the process and throws.
 */
export const startedAsAdmin = async (
  env: Readonly<Record<string, string>> & { readonly ADMIN_PASSWORD: string },
  ms = 30_000,
  prefix: readonly string[] = [],
): Promise<{ child: Started; token: string }> => {
  const child = await startMain(env, ms, prefix);
  try {
    return { child, token: await adminToken(child, env.ADMIN_PASSWORD, env.ADMIN_EMAIL) };
  } catch (e) {
    await reap(child);
    throw e;
  }
};

/**
 * The blob files an embedded store in `dataDir` holds: kept ones, and `tmp/<name>` for those
 * being received. Throws when `dataDir` has no `blobs/tmp` (the store makes it at its start), so
 * that "nothing kept" can never pass by reading a directory the store does not use.
 */
export const blobFilesIn = (dataDir: string): string[] => {
  const blobs = join(dataDir, 'blobs');
  const staging = join(blobs, 'tmp');
  if (!existsSync(staging)) throw new Error(`${dataDir} is not a started embedded store's data directory`);
  return [...readdirSync(blobs).filter((f) => f !== 'tmp'), ...readdirSync(staging).map((f) => `tmp/${f}`)];
};

/** The blob files of `dataDir` once they are `expected` again, or as they are after 5 s. */
export const blobFilesSettled = async (dataDir: string, expected: readonly string[]): Promise<string[]> => {
  for (let i = 0; i < 100 && blobFilesIn(dataDir).join() !== expected.join(); i += 1)
    await new Promise((r) => setTimeout(r, 50));
  return blobFilesIn(dataDir);
};
