import { Agent, request as httpsRequest } from 'node:https';
import { readAnswer, reap, startMain, type ChildAnswer, type Started } from '../server/child.js';

// The attacks of contract §11 are replayed against the real service: `node dist/src/main.js`
// in its own process (real argon2id, the real logger on stdout), over HTTPS with the served
// certificate pinned. This is the client the attack suites share.

export const adminEmail = 'admin@example.com';
export const adminPassword = 'attack-suite-admin-password';

/** An error answer's body, as the suites read it. */
export interface Problem {
  code: number;
  description: string;
  errors?: { code: number; field: string; message: string }[];
}

export interface Target {
  readonly child: Started;
  /** One request; an object body is sent as JSON, a string as it is (Content-Type application/json unless given). */
  send(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<ChildAnswer>;
  /** The password grant; the whole answer. */
  grant(email: string, password: string, scope?: string): Promise<ChildAnswer>;
  /** The password grant's access token (fails the test when refused). */
  login(email: string, password: string, scope?: string): Promise<string>;
  /** A new user of the role (made by the admin), with a token of their own. */
  user(role: 'customer' | 'agent' | 'admin'): Promise<{ id: number; email: string; password: string; token: string }>;
  /** The first admin's token. */
  admin(): Promise<string>;
  /** One request on `agent`'s kept-alive connections (the served certificate pinned); a body is sent as JSON. */
  pooled(agent: Agent, method: string, path: string, body?: unknown): Promise<ChildAnswer>;
  /** Requests to /healthz on a kept-alive connection until `until` settles; each one's time in ms. */
  pollHealth<A>(until: Promise<A>): Promise<{ result: A; waits: number[] }>;
}

let made = 0;

export const startTarget = async (env: Readonly<Record<string, string>> = {}): Promise<Target> => {
  const child = await startMain({
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    RATE_LIMIT: '1000000',
    ...env,
  });
  const send: Target['send'] = (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    return child.request(method, path, { headers, ...(body === undefined ? {} : { body }) });
  };
  const grant: Target['grant'] = (email, password, scope) =>
    send('POST', '/v1/oauth/token', {
      body: { grant_type: 'password', username: email, password, ...(scope === undefined ? {} : { scope }) },
    });
  const login: Target['login'] = async (email, password, scope) => {
    const answer = await grant(email, password, scope);
    if (answer.status !== 200) throw new Error(`login of ${email} refused: ${answer.status} ${answer.text}`);
    return (answer.json as { access_token: string }).access_token;
  };
  let adminToken: string | null = null;
  const admin = async (): Promise<string> => (adminToken ??= await login(adminEmail, adminPassword));
  const user: Target['user'] = async (role) => {
    made += 1;
    const email = `${role}-${made}-${process.pid}@example.com`;
    const password = `password-of-${role}-${made}`;
    const created = await send('POST', '/v1/users', {
      token: await admin(),
      body: { name: `${role} ${made}`, email, password, role },
    });
    if (created.status !== 201) throw new Error(`user not created: ${created.status} ${created.text}`);
    return { id: (created.json as { id: number }).id, email, password, token: await login(email, password) };
  };
  const pooled: Target['pooled'] = (agent, method, path, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: child.port,
          method,
          path,
          ca: child.servedPem,
          servername: 'localhost',
          agent,
          headers: payload === undefined ? {} : { 'Content-Type': 'application/json' },
        },
        (res) => {
          readAnswer(res).then(resolve, reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const pollHealth: Target['pollHealth'] = async (until) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const waits: number[] = [];
    const state = { settled: false };
    const done = until.finally(() => {
      state.settled = true;
    });
    const once = (): Promise<ChildAnswer> => pooled(agent, 'GET', '/healthz');
    try {
      while (!state.settled) {
        const started = performance.now();
        await once();
        waits.push(performance.now() - started);
      }
      return { result: await done, waits };
    } finally {
      agent.destroy();
    }
  };
  return { child, send, grant, login, user, admin, pooled, pollHealth };
};

/** Registers the hooks that start the target before the enclosing describe block's tests and kill it after them; answers it, filled in by `before`. */
export const targetSuite = (env: Readonly<Record<string, string>> = {}): Target => {
  const target = {} as Target;
  before(async () => {
    Object.assign(target, await startTarget(env));
  });
  after(async () => {
    await reap((target as Partial<Target>).child);
  });
  return target;
};
