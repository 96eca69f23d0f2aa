// Attachments (contract §9), measured (not a test): the real service on the embedded store in a
// child process, beside a raw node:https server in the same run (attachments-raw.ts). Both
// servers are pinned to one core, this process and the reader to the other (support/pinning.ts).
//   - (memory, the 25 MiB goal: attachments-memory.ts, bench:attachments:memory);
//   - download: a 10 MiB file fetched ROUNDS times through GET .../content, each round beside
//     one against the raw server piping the same file from disk, goal >= 0.8x;
//   - upload: 10 MiB posted ROUNDS times to POST /v1/uploads, each round beside one against the
//     raw server writing the body to disk with fsync, goal >= 0.6x;
//   - BURSTS times: 50 concurrent 1 MiB uploads (no error, no 5xx), each burst after a quiet
//     window; a reader in its own process (attachments-reader.ts) GETs /v1/tickets/{id} one
//     at a time all along: the p99 of the reads started during the bursts, against the p99 of
//     those started in the quiet windows, goal <= 2x.
//   Each transfer's rounds print their own ratios and both servers' CPU per round (the service's
//   and the raw server's processes, user + system), which noise on the shared cores moves less.
//   npx -y pnpm@10 bench:attachments        ROUNDS=10 BURSTS=5 by default (BURSTS=0: the
//   throughput part alone); SERVICE_ENV="A=1 B=2"
//   adds to the service's environment (e.g. UPLOAD_CONCURRENCY=1000: the reads before the bound);
//   SERVICE_NODE_ARGS="--single-threaded-gc" adds node flags before the service's script;
//   WINDOWS=1 preloads support/loop-delay.ts into the service and prints, for its quiet windows
//   and its bursts, its CPU per thread and the garbage collections (support/service-windows.ts)
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService } from './anchors/service.js';
import { writeCertificate } from './support/cert.js';
import { expectJson, field, httpsClient, type Answer, type Call } from './support/https-client.js';
import { knob, load, serviceEnv, serviceNodeArgs } from './support/knobs.js';
import { pinLoadGenerator, reniceBackground } from './support/pinning.js';
import { pairedRounds, roundsLine, type Pair } from './support/paired-rounds.js';
import { firstLine, startNode, stop } from './support/processes.js';
import { createUser, login } from './support/seed.js';
import { startReader } from './support/reader-process.js';
import { sleep } from './support/service.js';
import { loopDelayImport, readWindows, windowLines } from './support/service-windows.js';

const rounds = knob('ROUNDS', 10, 1);
const bursts = knob('BURSTS', 5, 0);
const windowed = knob('WINDOWS', 0, 0) === 1;
const loadAtStart = load();
const pinning = pinLoadGenerator();
if (pinning.warning !== null) console.log(`WARNING: ${pinning.warning}`);
const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'bench-attachments-'));
const tls = await writeCertificate(dir);

const p = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const mibps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

const service = await startService({
  prefix: pinning.prefix,
  tls,
  tickets: 20,
  nodeArgs: [...(windowed ? loopDelayImport() : []), ...serviceNodeArgs()],
  env: {
    STORE: 'embedded',
    UPLOAD_MAX_BYTES: String(30 * MiB),
    ...(windowed ? { LOOP_DELAY_FILE: join(dir, 'loop-delay.jsonl') } : {}),
    ...serviceEnv(),
  },
});
/** Ends the service's current window (WINDOWS=1), filed under `label`. */
const windowLabels: string[] = [];
const endWindow = (label: string) => {
  if (!windowed) return;
  windowLabels.push(label);
  process.kill(service.started.child.pid ?? 0, 'SIGUSR2');
};
/** Timed requests to a server: answers' bodies kept (small ones) or only counted (downloads). */
const timedClient = (port: number, discardBodies: boolean) => {
  const client = httpsClient({ port, ca: tls.cert, maxSockets: 64, discardBodies });
  const send = async (call: Call): Promise<Answer & { ms: number }> => {
    const started = performance.now();
    const answer = await client.send(call);
    return { ...answer, ms: performance.now() - started };
  };
  return { send, close: client.close };
};
const reniced = reniceBackground(service.started.child.pid);
const toService = timedClient(service.port, false);
const fromService = timedClient(service.port, true);
const token = service.token;
const upload = (bytes: Buffer, name = 'f.bin', as = token) =>
  toService.send({
    method: 'POST',
    path: `/v1/uploads?filename=${name}`,
    token: as,
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes,
  });
const idOf = (a: Answer) => field(expectJson(a, 201, 'an upload'), 'id', 'number');

// Throughput against the raw server, in the same run.
const ten = randomBytes(10 * MiB);
const file = join(dir, 'ten.bin');
writeFileSync(file, ten);
const ticket = `/v1/tickets/${service.ticketIds[0] ?? 0}`;
const ticketJson = (await toService.send({ path: ticket, token })).text;
const raw = startNode(pinning.prefix, [fileURLToPath(new URL('./attachments-raw.js', import.meta.url))], {
  env: { ...process.env, CERT: tls.certFile, KEY: tls.keyFile, FILE: file, DIR: dir, TICKET: ticketJson },
});
const rawPort = field(await firstLine(raw, 'the raw server'), 'port', 'number');
const toRaw = timedClient(rawPort, false);
const fromRaw = timedClient(rawPort, true);
const tenId = idOf(await upload(ten, 'ten.bin'));
/** ROUNDS rounds of `ofService` against `ofRaw`, ending a service window (WINDOWS=1) named `label`. */
const timedPair = async (
  label: string,
  ofService: () => Promise<{ ms: number }>,
  ofRaw: () => Promise<{ ms: number }>,
): Promise<Pair> => {
  const pids = { servicePid: service.started.child.pid, baselinePid: raw.child.pid };
  const pair = await pairedRounds({ rounds, bytes: 10 * MiB, ...pids }, ofService, ofRaw);
  endWindow(label);
  return pair;
};
endWindow('before');
const down = await timedPair(
  'download rounds',
  () => fromService.send({ path: `/v1/attachments/${tenId}/content`, token }),
  () => fromRaw.send({ path: '/file' }),
);
const up = await timedPair(
  'upload rounds',
  () => {
    ten[0] = (ten[0] ?? 0) ^ 1;
    return upload(ten, 'up.bin');
  },
  () => toRaw.send({ method: 'POST', path: '/upload', body: ten }),
);

// BURSTS x 50 concurrent 1 MiB uploads to each server in turn (to the service by 5 users each
// time: 50 unattached each at most), and the reader's GETs of a ticket all along (not run when BURSTS=0).
type Target = 'service' | 'raw';
const burstPart = async () => {
  const uploaders: string[] = [];
  for (let i = 0; i < 5 * bursts; i += 1) {
    const email = `agent${i}@example.com`;
    await createUser(service.http, token, { name: `Agent ${i}`, email, role: 'agent', password: `bench-agent-${i}` });
    uploaders.push(await login(service.http, email, `bench-agent-${i}`));
  }
  const reader = startReader({ service: service.port, raw: rawPort, ca: tls.certFile, token, ticket });
  const { phase, readings } = reader;
  // The bodies are made before the bursts: making 50 MiB of random bytes is not the servers' work.
  const bodies = Array.from({ length: 50 }, () => randomBytes(MiB));
  const answers: Record<Target, { status: number; text: string }[]> = { service: [], raw: [] };
  const burstMs: Record<Target, number> = { service: 0, raw: 0 };
  const burst = async (target: Target, b: number) => {
    endWindow('before');
    // Filed by burst too ("service busy 3"): each burst's own p99 is printed beside the whole.
    phase(`${target} quiet ${b + 1}`);
    await sleep(2000);
    endWindow(`${target} quiet`);
    phase(`${target} busy ${b + 1}`);
    const started = performance.now();
    answers[target].push(
      ...(await Promise.all(
        bodies.map((body, i) => {
          body[0] = (body[0] ?? 0) ^ 1;
          const sent =
            target === 'service'
              ? upload(body, 'one.bin', uploaders[b * 5 + (i % 5)] ?? token)
              : toRaw.send({
                  method: 'POST',
                  path: '/upload',
                  headers: { 'content-type': 'application/octet-stream' },
                  body,
                });
          return sent.catch((e: unknown) => ({ status: 0, text: e instanceof Error ? e.message : String(e) }));
        }),
      )),
    );
    burstMs[target] += performance.now() - started;
    endWindow(`${target} busy`);
    phase('idle');
    await sleep(500);
  };
  for (let b = 0; b < bursts; b += 1) {
    await burst('service', b);
    await burst('raw', b);
  }
  reader.end();
  const samples = await readings;
  /** The readings of `key`'s bursts (from 1): all of them, only burst `b`, or (b < 0) all but the first. */
  const sorted = (key: string, b?: number) =>
    Array.from({ length: bursts }, (_, i) => i + 1)
      .filter((i) => b === undefined || i === b || (b < 0 && i > 1))
      .flatMap((i) => samples[`${key} ${i}`] ?? [])
      .sort((x, y) => x - y);
  return { sorted, answers, burstMs };
};
const bursted = bursts > 0 ? await burstPart() : null;
/** The service's windows, once it has written one for every SIGUSR2 sent (it answers a signal a turn later). */
const windowsWritten = async () => {
  const file = join(dir, 'loop-delay.jsonl');
  const lines = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0);
  for (let i = 0; i < 100 && lines() < windowLabels.length; i += 1) await sleep(50);
  return readWindows(file);
};
const serviceWindows = windowed ? await windowsWritten() : [];
await stop(raw);
for (const c of [toService, fromService, toRaw, fromRaw]) c.close();
await service.stop();
rmSync(dir, { recursive: true, force: true });

const ratio = (a: number, b: number) => (a / b).toFixed(2);
console.log(
  pinning.pinned
    ? `servers pinned to CPU ${pinning.serverCpu ?? '?'}, clients to CPU ${pinning.loadCpu ?? '?'}`
    : 'unpinned',
);
console.log(
  `service settings: ${JSON.stringify(serviceEnv())}, node flags: ${JSON.stringify(serviceNodeArgs())}${reniced === null ? '' : `; ${reniced}`}`,
);
console.log(
  `${loadAtStart} at the start, ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the end (2 cores)`,
);
console.log('memory (a 25 MiB upload and download): npx -y pnpm@10 bench:attachments:memory');
console.log(
  `download 10 MiB x${rounds}: service ${down.service.toFixed(0)} MiB/s, raw ${down.baseline.toFixed(0)} MiB/s: ${ratio(down.service, down.baseline)}x (goal >= 0.8)`,
);
console.log(roundsLine(down, 'raw'));
console.log(
  `upload 10 MiB x${rounds}: service ${up.service.toFixed(0)} MiB/s, raw with fsync ${up.baseline.toFixed(0)} MiB/s: ${ratio(up.service, up.baseline)}x (goal >= 0.6)`,
);
console.log(roundsLine(up, 'raw'));
// The service's own windows over the rounds (the raw server's rounds are its idle time).
for (const label of windowed ? ['download rounds', 'upload rounds'] : [])
  for (const line of windowLines(
    label,
    serviceWindows.filter((_, i) => windowLabels[i] === label),
  ))
    console.log(line);
if (bursted !== null) {
  const { sorted, answers, burstMs } = bursted;
  const failed = [
    ...answers.service.map((a) => ({ ...a, text: `service: ${a.text}` })),
    ...answers.raw.map((a) => ({ ...a, text: `raw: ${a.text}` })),
  ].filter((a) => a.status !== 201);
  const spread = (s: readonly number[]) =>
    `p50 ${p(s, 0.5).toFixed(1)}, p90 ${p(s, 0.9).toFixed(1)}, p99 ${p(s, 0.99).toFixed(1)}, max ${(s.at(-1) ?? NaN).toFixed(1)} ms (${s.length} reads)`;
  const p99: Record<Target, number> = { service: NaN, raw: NaN };
  for (const target of ['service', 'raw'] as const) {
    const busy = sorted(`${target} busy`);
    const quiet = sorted(`${target} quiet`);
    p99[target] = p(busy, 0.99) / p(quiet, 0.99);
    console.log(
      `${target}: ${bursts} x 50 concurrent 1 MiB uploads, ${(burstMs[target] / bursts).toFixed(0)} ms a burst (${mibps(50 * MiB * bursts, burstMs[target]).toFixed(0)} MiB/s)`,
    );
    console.log(`  GET ticket during the uploads: ${spread(busy)}`);
    console.log(`  GET ticket in the quiet windows: ${spread(quiet)}`);
    const each = (key: string) =>
      Array.from({ length: bursts }, (_, i) => p(sorted(key, i + 1), 0.99).toFixed(1)).join('/');
    console.log(`  p99 burst by burst, ms: during ${each(`${target} busy`)}; quiet ${each(`${target} quiet`)}`);
  }
  console.log(
    `uploads answered: ${answers.service.length + answers.raw.length - failed.length} x 201, ${failed.length} other (${[...new Set(failed.map((a) => `${a.status} ${a.text.slice(0, 100)}`))].join('; ')})`,
  );
  console.log(
    `GET ticket p99 during / without: service ${p99.service.toFixed(2)}x (goal <= 2), raw node:https ${p99.raw.toFixed(2)}x`,
  );
  if (bursts > 1) {
    // The first burst opens the uploaders' 50 TLS connections and meets code not yet optimized.
    const later = (target: Target) => p(sorted(`${target} busy`, -1), 0.99) / p(sorted(`${target} quiet`, -1), 0.99);
    console.log(
      `  the same without the first burst and its quiet window: service ${later('service').toFixed(2)}x, raw node:https ${later('raw').toFixed(2)}x`,
    );
  }
  // The service's own windows (its raw-server windows are its idle time).
  for (const label of windowed ? ['service quiet', 'service busy'] : [])
    for (const line of windowLines(
      label,
      serviceWindows.filter((_, i) => windowLabels[i] === label),
    ))
      console.log(line);
  if (failed.length > 0) process.exitCode = 1;
}
