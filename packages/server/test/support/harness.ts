import type { PasswordHasher } from '@support/application';
import { manualClock, type ManualClock } from '@support/application/testing';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { Container } from 'inversify';
import { configFromEnv, startServer, TYPES, type RunningServer } from '../../src/index.js';
import type { Answer } from './answer.js';
import { responseChecks } from './response-checks.js';

export type { Answer } from './answer.js';

// The one test clock (the application's), re-exported for the HTTP and process tests.
export { manualClock, type ManualClock };

/**
 * A cheap stand-in for argon2id in HTTP tests (the real hasher has its own tests):
 * keeps tests fast, still distinguishes passwords.
 */
export const plainHasher: PasswordHasher = {
  hash: (p) => Promise.resolve(`test$${Buffer.from(p, 'utf8').toString('base64')}`),
  verify: (h, p) => Promise.resolve(h === `test$${Buffer.from(p, 'utf8').toString('base64')}`),
};

export interface RequestOptions {
  /** A list sends the header once per item (a repeated header). */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  /** An object is sent as JSON (with Content-Type application/json unless given). */
  readonly body?: unknown;
  /** Bearer token shortcut. */
  readonly token?: string;
  /** Send over the plain listener instead of HTTPS. */
  readonly plain?: boolean;
  /** On a new connection even when the API keeps connections alive (a body the server may refuse unread). */
  readonly fresh?: boolean;
}

export interface ApiOptions {
  /**
   * Reuse connections (one at a time) instead of a new TLS connection per request: the
   * suites that send thousands of requests (fuzz, sequences) spend their time on requests,
   * not handshakes.
   */
  readonly keepAlive?: boolean;
  /** More bindings to replace, after the harness's own (clock, hasher, logger). */
  readonly rebind?: (container: Container) => void;
}

export const adminEmail = 'admin@example.com';
export const adminPassword = 'admin-password-1';

export interface Api {
  readonly server: RunningServer;
  readonly clock: ManualClock;
  /** Origin used in URLs the API emits. */
  readonly origin: string;
  /** Every line the service logged so far, as JSON of { m: message, ...fields }. */
  readonly logs: readonly string[];
  request(method: string, path: string, options?: RequestOptions): Promise<Answer>;
  get(path: string, options?: RequestOptions): Promise<Answer>;
  post(path: string, body: unknown, options?: RequestOptions): Promise<Answer>;
  /** Logs in with the password grant and answers the access token. */
  login(email: string, password: string): Promise<string>;
  adminToken(): Promise<string>;
  /** Creates a user (as admin) and logs in as them. */
  userWithToken(
    role: 'customer' | 'agent' | 'admin',
    name?: string,
  ): Promise<{ id: number; email: string; password: string; token: string }>;
  close(): Promise<void>;
}

let userCounter = 0;

/**
 * Starts the real service (the server's composition root, memory store) on an ephemeral
 * HTTPS port, with a manual clock and a cheap hasher, and a Node client for it. Every
 * answer goes through `responseChecks` (the OpenAPI document check, when present).
 */
export const startApi = async (
  env: Readonly<Record<string, string>> = {},
  apiOptions: ApiOptions = {},
): Promise<Api> => {
  const clock = manualClock();
  // The memory store unless a test asks for another (STORE=embedded with its DATA_DIR).
  const config = configFromEnv({
    PORT: '0',
    STORE: 'memory',
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    ...env,
  });
  const logs: string[] = [];
  const server = await startServer(config, {
    rebind: (c) => {
      c.rebindSync(TYPES.Clock).toConstantValue(clock);
      c.rebindSync(TYPES.PasswordHasher).toConstantValue(plainHasher);
      c.rebindSync(TYPES.Logger).toConstantValue({
        info: (m, f) => {
          logs.push(JSON.stringify({ m, ...f }));
        },
        error: (m, f) => {
          logs.push(JSON.stringify({ m, ...f }));
        },
      });
      apiOptions.rebind?.(c);
    },
    shutdownGraceMs: 1_000,
  });
  const agent = apiOptions.keepAlive === true ? new HttpsAgent({ keepAlive: true, maxSockets: 1 }) : null;

  const request = (method: string, path: string, options: RequestOptions = {}, retried = false): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(options.headers ?? {}))
        headers[name] = typeof value === 'string' ? value : [...value];
      let payload: Buffer | null = null;
      if (options.body !== undefined) {
        if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) payload = Buffer.from(options.body);
        else {
          payload = Buffer.from(JSON.stringify(options.body));
          headers['Content-Type'] ??= 'application/json';
        }
        headers['Content-Length'] = String(payload.length);
      }
      if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
      const plain = options.plain === true;
      if (plain && server.httpPort === null) throw new Error('start the API with HTTP_PORT to use the plain listener');
      const send = plain ? httpRequest : httpsRequest;
      const req = send(
        {
          host: '127.0.0.1',
          port: plain ? (server.httpPort ?? 0) : server.port,
          method,
          path,
          headers,
          ca: server.cert,
          servername: 'localhost',
          agent: agent === null || plain || options.fresh === true ? false : agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            // HEAD and 304 say Content-Encoding: gzip over no body at all.
            let body: Buffer;
            try {
              body = res.headers['content-encoding'] === 'gzip' && raw.length > 0 ? gunzipSync(raw) : raw;
            } catch (e) {
              reject(
                new Error(
                  `${method} ${path}: the gzip body does not inflate (${e instanceof Error ? e.message : String(e)})`,
                ),
              );
              return;
            }
            const text = body.toString('utf8');
            let json: unknown = undefined;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            const answer: Answer = {
              status: res.statusCode ?? 0,
              headers: res.headers,
              text,
              raw,
              json,
              header: (name) => {
                const v = res.headers[name.toLowerCase()];
                return Array.isArray(v) ? v.join(', ') : v;
              },
            };
            try {
              responseChecks.check(method, path, answer);
            } catch (e) {
              reject(e instanceof Error ? e : new Error(String(e)));
              return;
            }
            resolve(answer);
          });
          res.on('error', reject);
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as idle just as this request went out:
        // it never reached the service, so it is sent once more on a new one (Node's advice).
        if (req.reusedSocket && e.code === 'ECONNRESET' && !retried)
          request(method, path, options, true).then(resolve, reject);
        else reject(e);
      });
      if (payload !== null) req.write(payload);
      req.end();
    });

  const login = async (email: string, password: string): Promise<string> => {
    const a = await request('POST', '/v1/oauth/token', { body: { grant_type: 'password', username: email, password } });
    const token = (a.json as { access_token?: string } | undefined)?.access_token;
    if (a.status !== 200 || token === undefined) throw new Error(`login of ${email} failed: ${a.status} ${a.text}`);
    return token;
  };
  let admin: string | null = null;
  const adminToken = async (): Promise<string> => (admin ??= await login(adminEmail, adminPassword));

  return {
    server,
    clock,
    origin: server.publicUrl,
    logs,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    login,
    adminToken,
    userWithToken: async (role, name) => {
      userCounter += 1;
      const email = `user${userCounter}-${role}@example.com`;
      const password = `password-${userCounter}`;
      const created = await request('POST', '/v1/users', {
        token: await adminToken(),
        body: { name: name ?? `Test ${role} ${userCounter}`, email, role, password },
      });
      if (created.status !== 201) throw new Error(`creating a ${role} failed: ${created.status} ${created.text}`);
      const id = (created.json as { id: number }).id;
      return { id, email, password, token: await login(email, password) };
    },
    close: () => {
      agent?.destroy();
      return server.close();
    },
  };
};
