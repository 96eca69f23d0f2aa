// The load: autocannon (closed loop, keep-alive connections, one request in flight on each)
// against one server for a while. Latencies are kept here at full resolution (autocannon's
// histogram rounds to whole milliseconds) and every answer's status is checked.
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { cpuSeconds } from './processes.mjs';

const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/**
 * Drives `endpoint` on `server` ({ port, pid }) over `connections` connections for `warmup` +
 * `seconds` and measures the last `seconds`: req/s, p50/p99 (ms), errors (transport errors,
 * timeouts and answers whose status is not the endpoint's, over the whole run), and the CPU
 * share the server and this process used. The window opens only once every connection has had
 * an answer, so the TLS handshakes (the same for the three servers, not what is compared) stay
 * out of it; `unsteady` says they had not all answered by the end (the figures are then NaN).
 */
export const drive = async (server, endpoint, { connections, warmup, seconds }) => {
  const connected = new Set();
  const warmUntil = performance.now() + warmup * 1000;
  let openedAt = null;
  let lastAt = 0;
  let serverCpu0 = NaN;
  let loadCpu0 = null;
  const latencies = [];
  let errors = 0;
  const run = autocannon({
    url: `https://127.0.0.1:${server.port}${endpoint.route.path}`,
    method: endpoint.route.method,
    headers: endpoint.headers,
    body: endpoint.route.body,
    connections,
    duration: warmup + seconds,
    timeout: 10,
  });
  run.on('response', (client, status, _bytes, ms) => {
    if (status !== endpoint.expect) errors += 1;
    const now = performance.now();
    if (openedAt === null) {
      if (connected.size < connections) connected.add(client);
      if (connected.size < connections || now < warmUntil) return;
      openedAt = now;
      serverCpu0 = cpuSeconds(server.pid);
      loadCpu0 = process.cpuUsage();
    } else {
      latencies.push(ms);
    }
    lastAt = now;
  });
  run.on('reqError', () => {
    errors += 1;
  });
  await run;
  const serverCpu = cpuSeconds(server.pid) - serverCpu0;
  const loadCpu = loadCpu0 === null ? NaN : ((u) => (u.user + u.system) / 1e6)(process.cpuUsage(loadCpu0));
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
