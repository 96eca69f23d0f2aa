// Where the service's time goes during bursts of uploads (not a test, not the benchmark): the
// service as bench:attachments starts it (embedded store, pinned to one core), with --cpu-prof
// and the loop-delay preload (support/loop-delay.ts); BURSTS x (2 s quiet, 50 concurrent 1 MiB
// uploads), the reader (attachments-reader.ts) GETting a ticket all along. Prints for the quiet
// windows and the bursts: the reader's p50/p99, the event-loop delay, the service's CPU time;
// then the profile's samples taken during the bursts, summed by what they were doing.
//   npx -y pnpm@10 exec tsc -b && node benchmarks/dist/attachments-profile.js
// BURSTS=5; CPU_PROF=0 leaves the profiler out (its own cost); SERVICE_ENV="A=1 B=2" adds to
// the service's environment (the upload settings being compared); FORM=multipart sends each
// upload as multipart/form-data with one part named file (a browser's FormData) instead of
// the raw body.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarizeProfile } from './anchors/profile-summary.js';
import { startService } from './anchors/service.js';
import { burstCategories, type TimedProfile } from './support/burst-profile.js';
import { writeCertificate } from './support/cert.js';
import { httpsClient } from './support/https-client.js';
import { knob, load, serviceEnv, serviceNodeArgs } from './support/knobs.js';
import { pinLoadGenerator, reniceBackground } from './support/pinning.js';
import { createUser, login } from './support/seed.js';
import { startReader } from './support/reader-process.js';
import { sleep } from './support/service.js';
import { loopDelayImport, readWindows, windowLines } from './support/service-windows.js';

const bursts = knob('BURSTS', 5, 1);
const form = process.env['FORM'] ?? 'raw';
if (form !== 'raw' && form !== 'multipart') {
  console.error(`FORM must be raw or multipart (got ${form})`);
  process.exit(2);
}
const profiled = knob('CPU_PROF', 1, 0) === 1;
const extraEnv = serviceEnv();
const pinning = pinLoadGenerator();
if (pinning.warning !== null) console.log(`WARNING: ${pinning.warning}`);
const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'bench-attachments-profile-'));
process.on('exit', () => {
  rmSync(dir, { recursive: true, force: true });
});
const tls = await writeCertificate(dir);
const delayFile = join(dir, 'loop-delay.jsonl');
const profileDir = join(dir, 'profile');
const service = await startService({
  prefix: pinning.prefix,
  tls,
  tickets: 20,
  nodeArgs: [
    ...loopDelayImport(),
    ...(profiled ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
    ...serviceNodeArgs(),
  ],
  env: { STORE: 'embedded', UPLOAD_MAX_BYTES: String(30 * MiB), LOOP_DELAY_FILE: delayFile, ...extraEnv },
  stdout: process.env['SERVICE_STDOUT'] === '1' ? 'pipe' : 'ignore',
});
if (process.env['SERVICE_STDOUT'] === '1') service.started.child.stdout?.pipe(process.stderr);
const pid = service.started.child.pid ?? 0;
const reniced = reniceBackground(pid);
if (reniced !== null) console.log(reniced);
const client = httpsClient({ port: service.port, ca: tls.cert, maxSockets: 64, discardBodies: false });
const ticket = `/v1/tickets/${service.ticketIds[0] ?? 0}`;
const uploaders: string[] = [];
for (let i = 0; i < 5 * bursts; i += 1) {
  const email = `agent${i}@example.com`;
  await createUser(service.http, service.token, { name: `A ${i}`, email, role: 'agent', password: `bench-agent-${i}` });
  uploaders.push(await login(service.http, email, `bench-agent-${i}`));
}
const reader = startReader({ service: service.port, raw: 0, ca: tls.certFile, token: service.token, ticket });
const { phase, readings } = reader;
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
/** Ends the service's loop-delay window (its line is the next in the file). */
const mark = () => process.kill(pid, 'SIGUSR2');
const boundary = 'bench-attachments-profile-boundary';
const partHead = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="one.bin"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n',
);
const sent =
  form === 'multipart'
    ? {
        path: '/v1/uploads',
        type: `multipart/form-data; boundary=${boundary}`,
        frame: (file: Buffer) => Buffer.concat([partHead, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
        first: partHead.length,
      }
    : {
        path: '/v1/uploads?filename=one.bin',
        type: 'application/octet-stream',
        frame: (file: Buffer) => file,
        first: 0,
      };
const bodies = Array.from({ length: 50 }, () => sent.frame(randomBytes(MiB)));
const windows: { from: number; to: number }[] = [];
const quietWindows: { from: number; to: number }[] = [];
const statuses = new Map<number, number>();
mark();
for (let b = 0; b < bursts; b += 1) {
  phase('service quiet');
  const quietFrom = nowUs();
  await sleep(2000);
  quietWindows.push({ from: quietFrom, to: nowUs() });
  mark();
  phase('service busy');
  const from = nowUs();
  const answers = await Promise.all(
    bodies.map((body, i) => {
      body[sent.first] = (body[sent.first] ?? 0) ^ 1;
      return client
        .send({
          method: 'POST',
          path: sent.path,
          token: uploaders[b * 5 + (i % 5)] ?? service.token,
          headers: { 'content-type': sent.type },
          body,
        })
        .catch(() => ({ status: 0 }));
    }),
  );
  windows.push({ from, to: nowUs() });
  mark();
  for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
  phase('idle');
  await sleep(500);
  mark();
}
reader.end();
const samples = await readings;
client.close();
await sleep(200);
await service.stop();

const p = (s: readonly number[], q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
const sorted = (k: string) => (samples[k] ?? []).sort((a, b) => a - b);
const quiet = sorted('service quiet');
// (the reader's "wait …" entries are not reads)
const busy = sorted('service busy');
console.log(
  `${load()}; SERVICE_ENV: ${JSON.stringify(extraEnv)}; node flags: ${JSON.stringify(serviceNodeArgs())}; CPU profile: ${profiled ? 'on' : 'off'}; uploads: ${form}`,
);
console.log(
  `the reader's own wait for its CPU: quiet ${(samples['wait service quiet']?.[0] ?? NaN).toFixed(0)} ms, bursts ${(samples['wait service busy']?.[0] ?? NaN).toFixed(0)} ms`,
);
console.log(`uploads answered: ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')}`);
const burstMs = windows.reduce((a, w) => a + (w.to - w.from) / 1000, 0) / windows.length;
console.log(`a burst: ${burstMs.toFixed(0)} ms on average`);
console.log(
  `GET ticket p50/p99: quiet ${p(quiet, 0.5).toFixed(1)}/${p(quiet, 0.99).toFixed(1)} ms, in bursts ${p(busy, 0.5).toFixed(1)}/${p(busy, 0.99).toFixed(1)} ms (${busy.length} reads): ${(p(busy, 0.99) / p(quiet, 0.99)).toFixed(2)}x`,
);
// The loop-delay lines: the first is start-up, then per burst: quiet, busy, idle.
const delays = readWindows(delayFile);
for (const [name, offset] of [
  ['quiet', 1],
  ['burst', 2],
] as const)
  for (const line of windowLines(
    name,
    delays.filter((_, i) => i > 0 && (i - offset) % 3 === 0),
  ))
    console.log(line);
if (profiled) {
  const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile')) ?? '';
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as TimedProfile;
  const { table, during } = burstCategories(profile, windows);
  console.log(`\nCPU profile, samples taken during the bursts (${bursts} bursts):\n${table}`);
  console.log(`\n${summarizeProfile(during).split('\n\n').slice(0, 2).join('\n\n')}`);
  // What sets the quiet reads' p99: the same categories in the quiet windows.
  console.log(`\nCPU profile, samples taken in the quiet windows:\n${burstCategories(profile, quietWindows).table}`);
}
