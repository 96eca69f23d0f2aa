// The one HTTPS client of the benchmarks: keep-alive connections to one server on loopback,
// trusting only the certificate that server serves (pinned: the agent's `ca` is that
// certificate alone), and a closed loop that records each request's latency.
import type { ClientRequest, IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { Agent, request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';

/** One request: a JSON `body` is serialized (a string or bytes are sent as they are). */
export interface Call {
  readonly method?: string;
  readonly path: string;
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: unknown;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
}

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body's bytes as they came (empty when the client discards bodies). */
  readonly bytes: Buffer;
  /** How many bytes the body had (counted also when discarded). */
  readonly received: number;
  /** The body's bytes, gunzipped when the server compressed them. */
  readonly plain: Buffer;
  /** The body as text (of `plain`). */
  readonly text: string;
}

export interface HttpsClient {
  readonly send: (call: Call) => Promise<Answer>;
  /** Ends the keep-alive connections. */
  readonly close: () => void;
}

export interface ClientOptions {
  readonly port: number;
  /** The certificate the server serves (PEM): the only one trusted. */
  readonly ca: string | Buffer;
  /** Connections kept at most (default 16); a closed loop gives one per worker. */
  readonly maxSockets?: number;
  /** Drop answers' bodies unread (load loops that look only at statuses). */
  readonly discardBodies?: boolean;
}

const payloadOf = (body: unknown): Buffer | null => {
  if (body === undefined) return null;
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
};

/** A large body goes in 64 KiB writes, each after the socket drained, as a streaming client sends it. */
const writeBody = async (req: ClientRequest, payload: Buffer | null) => {
  const piece = 64 * 1024;
  if (payload === null || payload.length <= piece) {
    req.end(payload ?? undefined);
    return;
  }
  for (let i = 0; i < payload.length; i += piece)
    if (!req.write(payload.subarray(i, i + piece))) await new Promise((resolve) => req.once('drain', resolve));
  req.end();
};

export const httpsClient = ({ port, ca, maxSockets = 16, discardBodies = false }: ClientOptions): HttpsClient => {
  const agent = new Agent({ keepAlive: true, maxSockets, ca });
  const send = ({ method = 'GET', path, headers = {}, body, token }: Call): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const payload = payloadOf(body);
      const all: OutgoingHttpHeaders = { ...headers };
      if (token !== undefined) all.authorization = `Bearer ${token}`;
      if (payload !== null) {
        all['content-type'] ??= 'application/json';
        all['content-length'] = String(payload.length);
      }
      const req = request(
        { host: '127.0.0.1', port, method, path, headers: all, agent, ca, servername: 'localhost' },
        (res) => {
          const chunks: Buffer[] = [];
          let received = 0;
          res.on('data', (c: Buffer) => {
            received += c.length;
            if (!discardBodies) chunks.push(c);
          });
          res.on('error', reject);
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const plain = res.headers['content-encoding'] === 'gzip' && bytes.length > 0 ? gunzipSync(bytes) : bytes;
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              bytes,
              received,
              plain,
              text: plain.toString('utf8'),
            });
          });
        },
      );
      req.on('error', reject);
      void writeBody(req, payload);
    });
  return {
    send,
    close: () => {
      agent.destroy();
    },
  };
};

/** An answer with its latency; a transport error is status 0 with `error` (headers and text empty). */
export interface Timed {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly ms: number;
  readonly error: string | null;
}

/** Sends `call`, timing it; a transport error is answered (status 0), never thrown. */
export const timedSend = async (http: HttpsClient, call: Call): Promise<Timed> => {
  const started = performance.now();
  try {
    const { status, headers, text } = await http.send(call);
    return { status, headers, text, ms: performance.now() - started, error: null };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    return { status: 0, headers: {}, text: '', ms: performance.now() - started, error };
  }
};

/** The answer's JSON body; throws, naming `what`, unless the status is `status`. */
export const expectJson = (answer: Answer, status: number, what: string): unknown => {
  if (answer.status !== status)
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 300)}`);
  return JSON.parse(answer.text) as unknown;
};

/** `value[key]` when `value` is an object holding a string or number there; throws otherwise. */
export const field = <K extends 'string' | 'number'>(
  value: unknown,
  key: string,
  kind: K,
): K extends 'string' ? string : number => {
  const v: unknown = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  if (typeof v !== kind) throw new Error(`expected a ${kind} in "${key}" of ${JSON.stringify(value).slice(0, 300)}`);
  return v as K extends 'string' ? string : number;
};

export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN);

export const median = (xs: readonly number[]): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

export interface LoopResult {
  /** Requests completed. */
  readonly n: number;
  readonly elapsedMs: number;
  readonly rps: number;
  /** Every request's latency (ms), sorted. */
  readonly latencies: readonly number[];
  readonly p50: number;
  readonly p99: number;
}

/**
 * A closed loop: `workers` workers each run `once` again as soon as it settles, until `ms` have
 * passed; each call's time is recorded. `once` handles its own failures (count them, or throw
 * to stop the run).
 */
export const closedLoop = async (workers: number, ms: number, once: (worker: number) => Promise<void>) => {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + ms;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await once(w);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const result: LoopResult = {
    n: latencies.length,
    elapsedMs,
    rps: (latencies.length / elapsedMs) * 1000,
    latencies,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
  return result;
};
