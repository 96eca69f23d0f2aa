// Benchmark (not a test): the service against two anchors serving the very bytes it answers.
//
//   npx -y pnpm@10 bench:anchors                     # builds, then ~5 min with the defaults
//   BENCH_ROUNDS=5 BENCH_SECONDS=5 node benchmarks/dist/anchors/run.js
//
// Each round starts three fresh server processes on one core (taskset), this process (the load
// generator, autocannon) on another:
//   raw      node:https serving the captured answers, gzipSync per request, 304 on If-None-Match
//   fastify  Fastify 5 + @fastify/compress serving the same answers
//   service  the service's entry point (@support/server/main) on the memory store, seeded over HTTPS
// The service starts first; its answers are captured (capture.ts) and the anchors serve them.
// Then, endpoint by endpoint, each server in turn (the order rotated each round) is checked
// (one request: the captured bytes?) and loaded: a warm-up, then the measured window on the
// same connections (load.ts). Figures are medians over rounds; ratios are medians of the
// per-round ratios (a noisy round moves all three servers).
//
// Knobs: BENCH_ROUNDS (3), BENCH_SECONDS (4, per run), BENCH_CONNECTIONS (50),
// BENCH_WARMUP_SECONDS (1), BENCH_TICKETS (2000, seeded into each round's service).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCertificate } from '../support/cert.js';
import { httpsClient, type HttpsClient } from '../support/https-client.js';
import { knob } from '../support/knobs.js';
import { pinLoadGenerator } from '../support/pinning.js';
import { firstLine, rssBytes, startNode, stop, type Started } from '../support/processes.js';
import { captureAnswers } from './capture.js';
import { loadCapture, portOf, type Replayed } from './captured.js';
import { checkAnswer } from './check.js';
import { endpointsFor, routesFor, type Endpoint } from './endpoints.js';
import { drive, type Run } from './load.js';
import { startService } from './service.js';
import { median, summaryTable } from './table.js';

// ---------------------------------------------------------------------------- settings

const rounds = knob('BENCH_ROUNDS', 3, 1);
const seconds = knob('BENCH_SECONDS', 4, 1);
const connections = knob('BENCH_CONNECTIONS', 50, 1);
const warmup = knob('BENCH_WARMUP_SECONDS', 1, 0);
const tickets = knob('BENCH_TICKETS', 2000, 100);
const prewarm = knob('BENCH_PREWARM_SECONDS', 1, 0);
const servers = ['raw', 'fastify', 'service'] as const;
type ServerName = (typeof servers)[number];
const anchorScripts = { raw: 'raw-server.js', fastify: 'fastify-server.js' };

// ---------------------------------------------------------------------------- setup

const pin = pinLoadGenerator();
if (pin.warning !== null) {
  const bar = '!'.repeat(100);
  console.log(`${bar}\n!!! ${pin.warning}\n!!! the ratios below are NOT comparable with pinned runs\n${bar}`);
}
const work = mkdtempSync(join(tmpdir(), 'bench-anchors-'));
process.on('exit', () => {
  rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));
const tls = await writeCertificate(work);

const mb = (bytes: number) => (Number.isFinite(bytes) ? `${Math.round(bytes / 2 ** 20)} MB` : '-');
const perRun = warmup + seconds + 0.5;
console.log(
  [
    `anchors: ${rounds} rounds × 6 endpoints × 3 servers, ${connections} keep-alive connections, ${warmup} s warm-up + ${seconds} s per run ` +
      `after an untimed ${prewarm} s pass per GET endpoint and server (~${Math.ceil((rounds * (6 * 3 * perRun + 5 * 3 * prewarm + 5)) / 60)} min); ${tickets} tickets seeded per service`,
    `Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
    pin.pinned
      ? `servers pinned to CPU ${pin.serverCpu ?? '?'}, load generator (this process, autocannon) to CPU ${pin.loadCpu ?? '?'}`
      : 'UNPINNED',
    `TLS: one self-signed ${tls.description} certificate (the service's generator) for all three servers`,
  ].join('\n'),
);

// ---------------------------------------------------------------------------- one round

/** endpoint name -> server -> per-round runs */
const results = new Map<string, Map<string, Run[]>>();
const rss: { before: number; after: number }[] = [];
let failedChecks = 0;
let unsteady = 0;

interface Running {
  readonly name: ServerName;
  readonly started: Started;
  readonly pid: number | undefined;
  readonly port: number;
  readonly http: HttpsClient;
}

const startAnchor = async (name: 'raw' | 'fastify', captureFile: string): Promise<Running> => {
  const child = startNode(pin.prefix, [
    fileURLToPath(new URL(anchorScripts[name], import.meta.url)),
    captureFile,
    tls.certFile,
    tls.keyFile,
  ]);
  const port = portOf(await firstLine(child, name));
  return { name, started: child, pid: child.child.pid, port, http: httpsClient({ port, ca: tls.cert }) };
};

/** The servers in the order a round loads them: rotated each round. */
const order0 = (r: number): ServerName[] => servers.map((_, i) => servers[(i + r - 1) % servers.length] ?? 'raw');

const round = async (r: number) => {
  const started: Running[] = [];
  try {
    const seedStart = Date.now();
    const service = await startService({ prefix: pin.prefix, tls, tickets });
    const seeded = `service started and seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`;
    started.push({
      name: 'service',
      started: service.started,
      pid: service.started.child.pid,
      port: service.port,
      http: service.http,
    });
    const routes = routesFor(service);
    const captureFile = join(work, `capture-${r}.json`);
    writeFileSync(captureFile, JSON.stringify(await captureAnswers(service.http, service.token, routes)));
    const captured = loadCapture(captureFile);
    const answerOf = ({ route }: Pick<Endpoint, 'route'>): Replayed => {
      const answer = captured.get(`${route.method} ${route.path}`);
      if (answer === undefined) throw new Error(`nothing captured for ${route.method} ${route.path}`);
      return answer;
    };
    const endpoints = endpointsFor(routes, {
      etag: answerOf({ route: routes.ticket }).etag ?? '',
      token: service.token,
    });
    const sizes = [...captured.entries()].map(([key, a]) => `${key} ${a.status} ${a.body.length} B`);
    console.log(`round ${r}/${rounds}: ${seeded}; captured ${sizes.join(', ')}`);
    for (const name of ['raw', 'fastify'] as const) started.push(await startAnchor(name, captureFile));
    const byName = new Map(started.map((s) => [s.name, s]));
    const serverNamed = (name: ServerName): Running => {
      const server = byName.get(name);
      if (server === undefined) throw new Error(`${name} did not start`);
      return server;
    };
    const rssBefore = rssBytes(service.started.child.pid);

    // Every fresh server first gets the same untimed pass over the GET endpoints: without it the
    // first endpoint measured (one ticket, plain) also measured the JIT compiling the code of
    // that path and, in the service, the collection of the seeding's garbage (measured: the
    // service's plain answer ran at ~0.75 of its gzip one when first, at par after a pass).
    // POST is left out: it adds tickets, and the pages must stay the captured ones.
    if (prewarm > 0) {
      for (const name of order0(r)) {
        for (const endpoint of endpoints) {
          if (endpoint.route.method !== 'GET') continue;
          const run = await drive(serverNamed(name), endpoint, { connections, warmup: 0, seconds: prewarm });
          if (run.errors > 0) console.log(`!!! round ${r}, warm-up ${endpoint.name}, ${name}: ${run.errors} errors`);
        }
      }
    }

    // Interleaved: per endpoint each server in turn, the order rotated each round.
    const order = order0(r);
    for (const endpoint of endpoints) {
      const line: string[] = [];
      for (const name of order) {
        const server = serverNamed(name);
        const problems = await checkAnswer(server.http, endpoint, answerOf(endpoint), { exact: name !== 'service' });
        if (problems.length > 0) {
          failedChecks += 1;
          console.log(`!!! round ${r}, ${endpoint.name}, ${name}: ${problems.join('; ')}`);
        }
        const run = await drive(server, endpoint, { connections, warmup, seconds });
        if (run.unsteady) unsteady += 1;
        const byServer = results.get(endpoint.name) ?? new Map<string, Run[]>(servers.map((s) => [s, []]));
        byServer.get(name)?.push(run);
        results.set(endpoint.name, byServer);
        const note = [
          run.errors > 0 ? `${run.errors} errors` : '',
          run.unsteady ? 'connections never all answered' : '',
        ].filter((x) => x !== '');
        line.push(`${name} ${Math.round(run.rps)}/s${note.length > 0 ? ` (${note.join(', ')})` : ''}`);
      }
      console.log(`round ${r}/${rounds} ${endpoint.name}: ${line.join(', ')}`);
    }
    rss.push({ before: rssBefore, after: rssBytes(service.started.child.pid) });
  } finally {
    for (const s of started) s.http.close();
    await Promise.all(started.map((s) => stop(s.started)));
  }
};

// ---------------------------------------------------------------------------- run, report

const t0 = Date.now();
for (let r = 1; r <= rounds; r++) await round(r);

console.log('');
console.log(summaryTable(results, servers));
console.log('');
console.log(
  `service RSS (after seeding → after the round's load): ${rss.map((x) => `${mb(x.before)} → ${mb(x.after)}`).join(', ')}; ` +
    `median ${mb(median(rss.map((x) => x.before)))} → ${mb(median(rss.map((x) => x.after)))}`,
);
console.log(
  `load average at the end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${Math.round((Date.now() - t0) / 1000)} s in all`,
);
const errors = [...results.values()]
  .flatMap((m) => [...m.values()])
  .flat()
  .reduce((n, run) => n + run.errors, 0);
if (!pin.pinned) console.log(`!!! ${pin.warning ?? ''}: these ratios are NOT comparable with pinned runs`);
if (unsteady > 0) {
  console.log(
    `!!! ${unsteady} runs ended before all ${connections} connections had an answer (no figures): raise BENCH_WARMUP_SECONDS`,
  );
}
if (failedChecks > 0 || errors > 0) {
  console.log(
    `!!! ${failedChecks} failed answer checks, ${errors} errors under load: the figures above are not trustworthy`,
  );
  process.exit(1);
}
