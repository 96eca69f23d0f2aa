// Benchmark (not a test): the service against two anchors serving the very bytes it answers.
//
//   npx -y pnpm@10 bench:anchors                     # builds, then ~5 min with the defaults
//   BENCH_ROUNDS=5 BENCH_SECONDS=5 node benchmarks/anchors/run.mjs
//
// Each round starts three fresh server processes on one core (taskset), this process (the load
// generator, autocannon) on another:
//   raw      node:https serving the captured answers, gzipSync per request, 304 on If-None-Match
//   fastify  Fastify 5 + @fastify/compress serving the same answers
//   service  packages/server/dist/src/main.js on the memory store, seeded over HTTPS
// The service starts first; its answers are captured (capture.mjs) and the anchors serve them.
// Then, endpoint by endpoint, each server in turn (the order rotated each round) is checked
// (one request: the captured bytes?) and loaded: a warm-up, then the measured window on the
// same connections (load.mjs). Figures are medians over rounds; ratios are medians of the
// per-round ratios (a noisy round moves all three servers).
//
// Knobs: BENCH_ROUNDS (3), BENCH_SECONDS (4, per run), BENCH_CONNECTIONS (50),
// BENCH_WARMUP_SECONDS (1), BENCH_TICKETS (2000, seeded into each round's service).
// It imports the compiled server (run `tsc -b` first; `pnpm bench:anchors` does).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureAnswers } from './capture.mjs';
import { loadCapture } from './captured.mjs';
import { writeCertificate } from './cert.mjs';
import { checkAnswer } from './check.mjs';
import { endpointsFor, routesFor } from './endpoints.mjs';
import { client } from './https-client.mjs';
import { drive } from './load.mjs';
import { pinLoadGenerator } from './pinning.mjs';
import { firstLine, rssBytes, startNode, stop } from './processes.mjs';
import { startService } from './service.mjs';
import { median, summaryTable } from './table.mjs';
import { knob } from './knobs.mjs';

// ---------------------------------------------------------------------------- settings

const rounds = knob('BENCH_ROUNDS', 3, 1);
const seconds = knob('BENCH_SECONDS', 4, 1);
const connections = knob('BENCH_CONNECTIONS', 50, 1);
const warmup = knob('BENCH_WARMUP_SECONDS', 1, 0);
const tickets = knob('BENCH_TICKETS', 2000, 100);
const prewarm = knob('BENCH_PREWARM_SECONDS', 1, 0);
const servers = ['raw', 'fastify', 'service'];
const anchorScripts = { raw: 'raw-server.mjs', fastify: 'fastify-server.mjs' };

// ---------------------------------------------------------------------------- setup

const pin = pinLoadGenerator();
if (pin.warning !== null) {
  const bar = '!'.repeat(100);
  console.log(`${bar}\n!!! ${pin.warning}\n!!! the ratios below are NOT comparable with pinned runs\n${bar}`);
}
const work = mkdtempSync(join(tmpdir(), 'bench-anchors-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));
const tls = await writeCertificate(work);

const mb = (bytes) => (Number.isFinite(bytes) ? `${Math.round(bytes / 2 ** 20)} MB` : '-');
const perRun = warmup + seconds + 0.5;
console.log(
  [
    `anchors: ${rounds} rounds × 6 endpoints × 3 servers, ${connections} keep-alive connections, ${warmup} s warm-up + ${seconds} s per run ` +
      `after an untimed ${prewarm} s pass per GET endpoint and server (~${Math.ceil((rounds * (6 * 3 * perRun + 5 * 3 * prewarm + 5)) / 60)} min); ${tickets} tickets seeded per service`,
    `Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
    pin.pinned
      ? `servers pinned to CPU ${pin.serverCpu}, load generator (this process, autocannon) to CPU ${pin.loadCpu}`
      : 'UNPINNED',
    `TLS: one self-signed ${tls.description} certificate (the service's generator) for all three servers`,
  ].join('\n'),
);

// ---------------------------------------------------------------------------- one round

/** endpoint name -> server -> per-round runs */
const results = new Map();
const rss = [];
let failedChecks = 0;
let unsteady = 0;

const startAnchor = async (name, captureFile) => {
  const child = startNode(pin.prefix, [
    fileURLToPath(new URL(anchorScripts[name], import.meta.url)),
    captureFile,
    tls.certFile,
    tls.keyFile,
  ]);
  const { port } = await firstLine(child, name);
  return { name, child, pid: child.pid, port, http: client(port, tls.cert) };
};

/** The servers in the order a round loads them: rotated each round. */
const order0 = (r) => servers.map((_, i) => servers[(i + r - 1) % servers.length]);

const round = async (r) => {
  const started = [];
  try {
    const seedStart = Date.now();
    const service = await startService({ prefix: pin.prefix, tls, tickets });
    const seeded = `service started and seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`;
    started.push({
      name: 'service',
      child: service.child,
      pid: service.child.pid,
      port: service.port,
      http: service.http,
    });
    const routes = routesFor(service);
    const captureFile = join(work, `capture-${r}.json`);
    writeFileSync(captureFile, JSON.stringify(await captureAnswers(service.http, service.token, routes)));
    const captured = loadCapture(captureFile);
    const answerOf = ({ route }) => captured.get(`${route.method} ${route.path}`);
    const endpoints = endpointsFor(routes, { etag: answerOf({ route: routes.ticket }).etag, token: service.token });
    const sizes = [...captured.entries()].map(([key, a]) => `${key} ${a.status} ${a.body.length} B`);
    console.log(`round ${r}/${rounds}: ${seeded}; captured ${sizes.join(', ')}`);
    for (const name of ['raw', 'fastify']) started.push(await startAnchor(name, captureFile));
    const byName = new Map(started.map((s) => [s.name, s]));
    const rssBefore = rssBytes(service.child.pid);

    // Every fresh server first gets the same untimed pass over the GET endpoints: without it the
    // first endpoint measured (one ticket, plain) also measured the JIT compiling the code of
    // that path and, in the service, the collection of the seeding's garbage (measured: the
    // service's plain answer ran at ~0.75 of its gzip one when first, at par after a pass).
    // POST is left out: it adds tickets, and the pages must stay the captured ones.
    if (prewarm > 0) {
      for (const name of order0(r)) {
        for (const endpoint of endpoints) {
          if (endpoint.route.method !== 'GET') continue;
          const run = await drive(byName.get(name), endpoint, { connections, warmup: 0, seconds: prewarm });
          if (run.errors > 0) console.log(`!!! round ${r}, warm-up ${endpoint.name}, ${name}: ${run.errors} errors`);
        }
      }
    }

    // Interleaved: per endpoint each server in turn, the order rotated each round.
    const order = order0(r);
    for (const endpoint of endpoints) {
      const line = [];
      for (const name of order) {
        const server = byName.get(name);
        const problems = await checkAnswer(server.http, endpoint, answerOf(endpoint), { exact: name !== 'service' });
        if (problems.length > 0) {
          failedChecks += 1;
          console.log(`!!! round ${r}, ${endpoint.name}, ${name}: ${problems.join('; ')}`);
        }
        const run = await drive(server, endpoint, { connections, warmup, seconds });
        if (run.unsteady) unsteady += 1;
        const byServer = results.get(endpoint.name) ?? new Map(servers.map((s) => [s, []]));
        byServer.get(name).push(run);
        results.set(endpoint.name, byServer);
        const note = [
          run.errors > 0 ? `${run.errors} errors` : '',
          run.unsteady ? 'connections never all answered' : '',
        ].filter((x) => x !== '');
        line.push(`${name} ${Math.round(run.rps)}/s${note.length > 0 ? ` (${note.join(', ')})` : ''}`);
      }
      console.log(`round ${r}/${rounds} ${endpoint.name}: ${line.join(', ')}`);
    }
    rss.push({ before: rssBefore, after: rssBytes(service.child.pid) });
  } finally {
    for (const s of started) s.http.close();
    await Promise.all(started.map((s) => stop(s.child)));
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
if (!pin.pinned) console.log(`!!! ${pin.warning}: these ratios are NOT comparable with pinned runs`);
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
