import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request } from 'node:https';
import { fileURLToPath } from 'node:url';

// A whole service process (the server package's compiled main.js, started by path, not
// imported: adapters never import the server), on a given database, for the real-mongod
// suite's cross-process checks. It answers over HTTPS with its self-signed certificate.

const mainJs = fileURLToPath(new URL('../../../../server/dist/src/main.js', import.meta.url));

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly json: unknown;
}

export interface RequestOptions {
  readonly token?: string;
  readonly body?: unknown;
  readonly form?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ServiceProcess {
  readonly url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<Answer>;
  stop(): Promise<void>;
  output(): string;
}

/** Starts main.js with STORE=mongo on `mongoUrl` and waits until it prints where it listens. */
const withoutTtl = (): Record<string, string> => {
  const v = process.env['MONGO_WITHOUT_TTL'];
  return v === undefined ? {} : { MONGO_WITHOUT_TTL: v };
};

export const startService = async (
  mongoUrl: string,
  env: Readonly<Record<string, string>> = {},
  ms = 60_000,
): Promise<ServiceProcess> => {
  const proc: ChildProcessWithoutNullStreams = spawn(process.execPath, [mainJs], {
    // MONGO_WITHOUT_TTL goes through as given (scripts/ferretdb-run.mjs sets it for a server without TTL indexes).
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      PORT: '0',
      STORE: 'mongo',
      MONGO_URL: mongoUrl,
      ...withoutTtl(),
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const append = (s: string): void => {
    out += s;
  };
  proc.stdout.setEncoding('utf8').on('data', append);
  proc.stderr.setEncoding('utf8').on('data', append);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the service did not start within ${ms} ms:\n${out}`));
    }, ms);
    const look = (): void => {
      const m = /listening on (https:\/\/localhost:\d+)/.exec(out);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout.on('data', look);
    proc.on('close', () => {
      reject(new Error(`the service exited:\n${out}`));
    });
  });
  const send = (method: string, path: string, options: RequestOptions = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const body = options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      const req = request(
        `${url}${path}`,
        {
          method,
          rejectUnauthorized: false, // the service's own self-signed certificate, on loopback
          headers: {
            ...options.headers,
            ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }),
            ...(body === undefined
              ? {}
              : {
                  'Content-Type': options.form === undefined ? 'application/json' : 'application/x-www-form-urlencoded',
                }),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (s: string) => (text += s));
          res.on('end', () => {
            let json: unknown = null;
            try {
              json = text === '' ? null : JSON.parse(text);
            } catch {
              json = text;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    url,
    request: send,
    output: () => out,
    stop: async () => {
      if (proc.exitCode !== null) return;
      const closed = new Promise((r) => proc.on('close', r));
      proc.kill('SIGTERM');
      await closed;
    },
  };
};

/** A password grant on a service: the access token. */
export const login = async (service: ServiceProcess, email: string, password: string): Promise<string> => {
  const a = await service.request('POST', '/v1/oauth/token', {
    form: `grant_type=password&username=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`,
  });
  if (a.status !== 200) throw new Error(`login failed: ${a.status} ${JSON.stringify(a.json)}`);
  return (a.json as { access_token: string }).access_token;
};
