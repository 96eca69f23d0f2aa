// Not a test, not the benchmark: a CPU profile of the service under the anchor load, to see
// where its time goes before changing anything.
//
//   node benchmarks/dist/anchors/profile.js [endpoint name prefix] [seconds]     (after tsc -b)
//   e.g. BENCH_TICKETS=200 node benchmarks/dist/anchors/profile.js "GET ticket, gzip" 8
//
// Starts the service as bench:anchors does (pinned, seeded), under `node --cpu-prof`, loads the
// endpoints whose name starts so (all when none), then the raw anchor on them, stops it (the profile is written
// at exit) and prints the functions with the most self time, the time per package or module,
// and each server's CPU time per request (steadier on a busy machine than req/s). The profile
// includes the seeding: keep BENCH_TICKETS small (200).
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCertificate } from '../support/cert.js';
import { knob } from '../support/knobs.js';
import { pinLoadGenerator } from '../support/pinning.js';
import { firstLine, startNode, stop } from '../support/processes.js';
import { captureAnswers } from './capture.js';
import { portOf } from './captured.js';
import { endpointsFor, routesFor } from './endpoints.js';
import { drive, type Run } from './load.js';
import { summarizeProfile, type CpuProfile } from './profile-summary.js';
import { startService } from './service.js';

const [filter = '', secondsArg = '6'] = process.argv.slice(2);
const seconds = Number(secondsArg);
const pin = pinLoadGenerator();
const work = mkdtempSync(join(tmpdir(), 'bench-profile-'));
process.on('exit', () => {
  rmSync(work, { recursive: true, force: true });
});
const tls = await writeCertificate(work);
const profileDir = join(work, 'profile');

const service = await startService({
  prefix: pin.prefix,
  tls,
  tickets: knob('BENCH_TICKETS', 2000, 1),
  nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir],
});
const routes = routesFor(service);
const captured = await captureAnswers(service.http, service.token, routes);
const etag = captured.routes.find((r) => r.path === routes.ticket.path)?.notModified?.etag ?? '';
const endpoints = endpointsFor(routes, { etag, token: service.token }).filter((e) => e.name.startsWith(filter));
// The raw anchor on the same endpoints, for its CPU time per request (no profile).
const captureFile = join(work, 'capture.json');
writeFileSync(captureFile, JSON.stringify(captured));
const rawChild = startNode(pin.prefix, [
  fileURLToPath(new URL('raw-server.js', import.meta.url)),
  captureFile,
  tls.certFile,
  tls.keyFile,
]);
const raw = { pid: rawChild.child.pid, port: portOf(await firstLine(rawChild, 'raw')) };
const served = { port: service.port, pid: service.started.child.pid };
const line = (name: string, run: Run) =>
  `${name}: ${Math.round(run.rps)}/s, server CPU ${Math.round(run.serverCpu * 100)}%, ${((run.serverCpu / run.rps) * 1e6).toFixed(0)} µs CPU/request, p50 ${run.p50.toFixed(1)} ms, p99 ${run.p99.toFixed(1)} ms, ${run.errors} errors`;
// An untimed pass first, as bench:anchors does: the first endpoint must not pay for the JIT.
for (const endpoint of endpoints) {
  if (endpoint.route.method !== 'GET') continue;
  for (const server of [served, raw]) await drive(server, endpoint, { connections: 50, warmup: 0, seconds: 1 });
}
for (const endpoint of endpoints) {
  const s = await drive(served, endpoint, { connections: 50, warmup: 1, seconds });
  const r = await drive(raw, endpoint, { connections: 50, warmup: 1, seconds });
  console.log(
    `${endpoint.name}\n  ${line('service', s)}\n  ${line('raw    ', r)}\n  CPU/request ratio raw/service ${(r.serverCpu / r.rps / (s.serverCpu / s.rps)).toFixed(2)}`,
  );
}
// The profile is written when the service exits (SIGTERM ends it cleanly); its directory is kept until then.
service.http.close();
await Promise.all([stop(service.started), stop(rawChild)]);

// ---------------------------------------------------------------------------- the profile

const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
if (file === undefined) throw new Error(`no .cpuprofile in ${profileDir}`);
// BENCH_PROFILE_OUT=file.cpuprofile keeps the profile (for Chrome DevTools or profile-summary.js).
if (process.env.BENCH_PROFILE_OUT !== undefined) copyFileSync(join(profileDir, file), process.env.BENCH_PROFILE_OUT);
console.log(summarizeProfile(JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile));
await service.stop();
