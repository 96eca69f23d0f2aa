// Attachments' memory, measured (not a test): issue 35's goal "a 25 MiB upload and a 25 MiB
// download: the service's RSS grows by < 5 MiB for each", i.e. the bytes stream and are never
// held whole (contract §9). The service as bench:attachments starts it (embedded store, pinned
// to one core), with --expose-gc and support/gc-probe.ts preloaded: SIGUSR2 makes it collect
// its garbage fully and report its memory. After WARMUPS rounds, REPS rounds of each transfer
// (1 MiB and 25 MiB, upload and download), each transfer done twice:
//   - peak: the probe's full collection first, then /proc/<pid>/clear_refs reset to the RSS of
//     that moment, the transfer with no collection forced, then VmHWM: the most RSS the
//     transfer reached over where it started, uncollected garbage (16 KiB TLS chunks that V8
//     frees only at its next collection) and the C allocator's arenas included;
//   - held: the same transfer with a forced full collection every PROBE_MS while it runs: the
//     most memory still reachable (V8 heap + external, array buffers included) over before it,
//     i.e. what the service holds of the file at once; and the RSS after a last collection.
// A service that held the file whole would hold ~25 MiB in the second and peak above it in the
// first; the 1 MiB transfer in the same process is the baseline the 25 MiB one is read against.
//   npx -y pnpm@10 bench:attachments:memory     REPS=5 WARMUPS=3 PROBE_MS=50; SERVICE_ENV="A=1"
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService } from './anchors/service.js';
import { writeCertificate } from './support/cert.js';
import { expectJson, field, httpsClient, type Answer } from './support/https-client.js';
import { knob, load, serviceEnv } from './support/knobs.js';
import { pinLoadGenerator } from './support/pinning.js';
import { sleep } from './support/service.js';

const reps = knob('REPS', 5, 1);
const warmups = knob('WARMUPS', 3, 0);
const probeMs = knob('PROBE_MS', 50, 1);
const pinning = pinLoadGenerator();
if (pinning.warning !== null) console.log(`WARNING: ${pinning.warning}`);
const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'bench-attachments-memory-'));
process.on('exit', () => {
  rmSync(dir, { recursive: true, force: true });
});
const tls = await writeCertificate(dir);
const probeFile = join(dir, 'gc-probe.jsonl');
writeFileSync(probeFile, '');
const loadAtStart = load();
const service = await startService({
  prefix: pinning.prefix,
  tls,
  tickets: 1,
  nodeArgs: ['--expose-gc', '--import', fileURLToPath(new URL('./support/gc-probe.js', import.meta.url))],
  env: { STORE: 'embedded', UPLOAD_MAX_BYTES: String(30 * MiB), GC_PROBE_FILE: probeFile, ...serviceEnv() },
});
const pid = service.started.child.pid ?? 0;
const client = httpsClient({ port: service.port, ca: tls.cert, maxSockets: 1, discardBodies: true });
const uploader = httpsClient({ port: service.port, ca: tls.cert, maxSockets: 1 });
const token = service.token;

interface Probe {
  readonly seq: number;
  readonly rss: number;
  readonly heapUsed: number;
  readonly external: number;
}
let probes = 0;
/** A full collection in the service, then its memory. */
const probe = async (): Promise<Probe> => {
  probes += 1;
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    const lines = readFileSync(probeFile, 'utf8').trim().split('\n');
    const last = JSON.parse(lines.at(-1) || '{"seq":0}') as Probe;
    if (last.seq === probes) return last;
    await sleep(2);
  }
};
const reachable = (p: Probe) => p.heapUsed + p.external;
const status = (name: 'VmRSS' | 'VmHWM'): number =>
  Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
/** Resets VmHWM to the current RSS (Linux >= 4.0, as root or the owner); false when refused. */
const resetPeak = (): boolean => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
};

const expect = (a: Answer, status: number, what: string): Answer => {
  if (a.status !== status) throw new Error(`${what}: ${a.status} ${a.text.slice(0, 200)}`);
  return a;
};
const uploadOf = async (bytes: Buffer): Promise<number> => {
  bytes[0] = (bytes[0] ?? 0) ^ 1; // new content each time: the store keeps equal content once
  const a = await uploader.send({
    method: 'POST',
    path: '/v1/uploads?filename=m.bin',
    token,
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  return field(expectJson(a, 201, 'an upload'), 'id', 'number');
};
const downloadOf = async (id: number, size: number): Promise<void> => {
  const a = expect(await client.send({ path: `/v1/attachments/${id}/content`, token }), 200, 'a download');
  if (a.received !== size) throw new Error(`downloaded ${a.received} bytes of ${size}`);
};

const files = { 1: randomBytes(MiB), 25: randomBytes(25 * MiB) };
const kept = { 1: await uploadOf(files[1]), 25: await uploadOf(files[25]) };
type Kind = 'upload 1' | 'upload 25' | 'download 1' | 'download 25';
const kinds: readonly Kind[] = ['upload 1', 'upload 25', 'download 1', 'download 25'];
const transfer = (kind: Kind): Promise<unknown> => {
  const size = kind.endsWith('25') ? 25 : 1;
  return kind.startsWith('upload') ? uploadOf(files[size]) : downloadOf(kept[size], size * MiB);
};

interface Reading {
  peak: number;
  held: number;
  after: number;
  probesDuring: number;
}
const readings: Record<Kind, Reading[]> = { 'upload 1': [], 'upload 25': [], 'download 1': [], 'download 25': [] };
const peaks = { resettable: true };
const measure = async (kind: Kind): Promise<Reading> => {
  // The peak, with no collection forced while the bytes move.
  const start = await probe();
  peaks.resettable &&= resetPeak();
  await transfer(kind);
  const peak = status('VmHWM') - start.rss;
  // What stays reachable while the bytes move, and the RSS after a last collection.
  const base = await probe();
  const moving: { done: boolean } = { done: false };
  const moved = transfer(kind).finally(() => (moving.done = true));
  let held = 0;
  let probesDuring = 0;
  for (;;) {
    await sleep(probeMs);
    if (moving.done) break;
    held = Math.max(held, reachable(await probe()) - reachable(base));
    probesDuring += 1;
  }
  await moved;
  const after = (await probe()).rss - base.rss;
  return { peak, held, after, probesDuring };
};
for (let w = 0; w < warmups; w += 1) for (const kind of kinds) await measure(kind);
for (let r = 0; r < reps; r += 1) for (const kind of kinds) readings[kind].push(await measure(kind));
client.close();
uploader.close();
await service.stop();

const mib = (b: number) => (b / MiB).toFixed(1);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const range = (xs: readonly number[]) => `${mib(median(xs))} (${mib(Math.min(...xs))} to ${mib(Math.max(...xs))})`;
console.log(`load at the start: ${loadAtStart}; at the end: ${load()} (2 cores)`);
console.log(
  pinning.pinned
    ? `service pinned to CPU ${pinning.serverCpu ?? '?'}, client to CPU ${pinning.loadCpu ?? '?'}`
    : 'unpinned',
);
console.log(`service settings: ${JSON.stringify(serviceEnv())}; ${warmups} warm-up rounds, ${reps} measured`);
if (!peaks.resettable) console.log('WARNING: /proc/<pid>/clear_refs refused: the peaks are since the start');
console.log('MiB, median (min to max) of the rounds:');
for (const kind of kinds) {
  const rs = readings[kind];
  console.log(
    `  ${kind.padEnd(11)} MiB: peak RSS over the start ${range(rs.map((r) => r.peak))}; held at once ${range(rs.map((r) => r.held))} (${rs.map((r) => r.probesDuring).join('/')} probes); RSS after a collection ${range(rs.map((r) => r.after))}`,
  );
}
for (const way of ['upload', 'download'] as const) {
  const big = readings[`${way} 25`];
  const small = readings[`${way} 1`];
  const extraPeak = big.map((r, i) => r.peak - (small[i]?.peak ?? NaN));
  const extraHeld = big.map((r, i) => r.held - (small[i]?.held ?? NaN));
  console.log(
    `${way} 25 MiB against 1 MiB: peak RSS +${range(extraPeak)} MiB, held +${range(extraHeld)} MiB (goal: grows < 5 MiB)`,
  );
}
