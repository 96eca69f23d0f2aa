// The load: autocannon (closed loop, keep-alive connections, one request in flight on each)
// against one server for a while. Latencies are kept here at full resolution (autocannon's
// histogram rounds to whole milliseconds) and every answer's status is checked.
import { performance } from 'node:perf_hooks';
import { cpuSeconds } from '../support/processes.js';
import { startAutocannon } from '../support/autocannon.js';
import type { Endpoint } from './endpoints.js';

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN);

export interface Run {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /** The server's CPU share over the window (1 = one core). */
  readonly serverCpu: number;
  /** This process's (autocannon's) CPU share over the window. */
  readonly loadCpu: number;
  readonly unsteady: boolean;
}

/**
 * Drives `endpoint` on `server` ({ port, pid }) over `connections` connections for `warmup` +
 * `seconds` and measures the last `seconds`: req/s, p50/p99 (ms), errors (transport errors,
 * timeouts and answers whose status is not the endpoint's, over the whole run), and the CPU
 * share the server and this process used. The window opens only once every connection has had
 * an answer, so the TLS handshakes (the same for the three servers, not what is compared) stay
 * out of it; `unsteady` says they had not all answered by the end (the figures are then NaN).
 */
export const drive = async (
  server: { readonly port: number; readonly pid: number | undefined },
  endpoint: Endpoint,
  { connections, warmup, seconds }: { connections: number; warmup: number; seconds: number },
): Promise<Run> => {
  const connected = new Set<unknown>();
  const warmUntil = performance.now() + warmup * 1000;
  // Set by the answers' handler (the window opens once every connection has answered).
  const window: { openedAt: number | null; lastAt: number; serverCpu0: number; loadCpu0: NodeJS.CpuUsage | null } = {
    openedAt: null,
    lastAt: 0,
    serverCpu0: NaN,
    loadCpu0: null,
  };
  const latencies: number[] = [];
  let errors = 0;
  const { run, finished } = startAutocannon({
    url: `https://127.0.0.1:${server.port}${endpoint.route.path}`,
    method: endpoint.route.method,
    headers: endpoint.headers,
    ...(endpoint.route.body === undefined ? {} : { body: endpoint.route.body }),
    connections,
    duration: warmup + seconds,
    timeout: 10,
  });
  run.on('response', (client: unknown, status: number, _bytes: number, ms: number) => {
    if (status !== endpoint.expect) errors += 1;
    const now = performance.now();
    if (window.openedAt === null) {
      if (connected.size < connections) connected.add(client);
      if (connected.size < connections || now < warmUntil) return;
      window.openedAt = now;
      window.serverCpu0 = cpuSeconds(server.pid);
      window.loadCpu0 = process.cpuUsage();
    } else {
      latencies.push(ms);
    }
    window.lastAt = now;
  });
  run.on('reqError', () => {
    errors += 1;
  });
  await finished;
  const { openedAt, lastAt, serverCpu0, loadCpu0 } = window;
  const serverCpu = cpuSeconds(server.pid) - serverCpu0;
  const used = loadCpu0 === null ? null : process.cpuUsage(loadCpu0);
  const loadCpu = used === null ? NaN : (used.user + used.system) / 1e6;
  const elapsed = openedAt === null ? NaN : (lastAt - openedAt) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    rps: latencies.length / elapsed,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    errors,
    // The server is idle between its last answer and the end of the run: its CPU time is all
    // in the window. This process's includes autocannon's summary, a few milliseconds.
    serverCpu: serverCpu / elapsed,
    loadCpu: loadCpu / elapsed,
    unsteady: openedAt === null,
  };
};
