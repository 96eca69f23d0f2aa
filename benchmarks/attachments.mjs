// Attachments (contract §9), measured (not a test): the real service on the embedded store in a
// child process, beside a raw node:https server in the same run (attachments-raw.mjs). Both
// servers are pinned to one core, this process and the reader to the other (pinning.mjs).
//   - memory: the service's RSS before and after a 25 MiB upload and a 25 MiB download (after
//     one warm-up of each), goal: grows < 5 MiB for each (the bytes stream, never held whole);
//   - download: a 10 MiB file fetched ROUNDS times through GET .../content, each round beside
//     one against the raw server piping the same file from disk, goal >= 0.8x;
//   - upload: 10 MiB posted ROUNDS times to POST /v1/uploads, each round beside one against the
//     raw server writing the body to disk with fsync, goal >= 0.6x;
//   - BURSTS times: 50 concurrent 1 MiB uploads (no error, no 5xx), each burst after a quiet
//     window; a reader in its own process (attachments-reader.mjs) GETs /v1/tickets/{id} one
//     at a time all along: the p99 of the reads started during the bursts, against the p99 of
//     those started in the quiet windows, goal <= 2x.
//   npx -y pnpm@10 bench:attachments        ROUNDS=10 BURSTS=5 by default
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCertificate } from './anchors/cert.mjs';
import { pinLoadGenerator } from './anchors/pinning.mjs';
import { firstLine, rssBytes, startNode, stop } from './anchors/processes.mjs';
import { startService } from './anchors/service.mjs';

const rounds = Number(process.env.ROUNDS ?? 10);
const bursts = Number(process.env.BURSTS ?? 5);
const pinning = pinLoadGenerator();
if (pinning.warning !== null) console.log(`WARNING: ${pinning.warning}`);
const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'bench-attachments-'));
const tls = await writeCertificate(dir);
const agent = new Agent({ keepAlive: true, maxSockets: 64, ca: tls.cert });

/** One request: `body` a Buffer (sent in 64 KiB writes) or none; resolves with status, bytes received and ms. */
const send = (port, { method = 'GET', path, headers = {}, body }) =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent, servername: 'localhost' }, (res) => {
      let received = 0;
      const chunks = [];
      res.on('data', (c) => {
        received += c.length;
        if (received < 64 * 1024) chunks.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          received,
          ms: performance.now() - started,
          text: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body === undefined) return void req.end();
    (async () => {
      for (let i = 0; i < body.length; i += 64 * 1024)
        if (!req.write(body.subarray(i, i + 64 * 1024))) await new Promise((r) => req.once('drain', r));
      req.end();
    })();
  });

const p = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const mibps = (bytes, ms) => bytes / MiB / (ms / 1000);

const service = await startService({
  prefix: pinning.prefix,
  tls,
  tickets: 20,
  env: {
    STORE: 'embedded',
    DATA_DIR: join(dir, 'data'),
    UPLOAD_MAX_BYTES: String(30 * MiB),
  },
});
const auth = { authorization: `Bearer ${service.token}` };
const upload = (bytes, name = 'f.bin') =>
  send(service.port, {
    method: 'POST',
    path: `/v1/uploads?filename=${name}`,
    headers: { ...auth, 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
    body: bytes,
  });
const idOf = (a) => {
  if (a.status !== 201) throw new Error(`upload answered ${a.status}: ${a.text}`);
  return JSON.parse(a.text).id;
};
const settle = () => new Promise((r) => setTimeout(r, 1500));
const rss = () => rssBytes(service.child.pid);

// Memory: warm up, then one 25 MiB upload and one download, RSS before and after each.
const big = randomBytes(25 * MiB);
const warm = idOf(await upload(big, 'warm.bin'));
await send(service.port, { path: `/v1/attachments/${warm}/content`, headers: auth });
big[0] ^= 1;
await settle();
const r0 = rss();
const bigId = idOf(await upload(big, 'big.bin'));
await settle();
const r1 = rss();
const got = await send(service.port, { path: `/v1/attachments/${bigId}/content`, headers: auth });
await settle();
const r2 = rss();
if (got.received !== big.length) throw new Error(`downloaded ${got.received} bytes of ${big.length}`);

// Throughput against the raw server, in the same run.
const ten = randomBytes(10 * MiB);
const file = join(dir, 'ten.bin');
writeFileSync(file, ten);
const ticket = `/v1/tickets/${service.ticketIds[0]}`;
const ticketJson = (await send(service.port, { path: ticket, headers: auth })).text;
const raw = startNode(pinning.prefix, [fileURLToPath(new URL('./attachments-raw.mjs', import.meta.url))], {
  env: { ...process.env, CERT: tls.certFile, KEY: tls.keyFile, FILE: file, DIR: dir, TICKET: ticketJson },
});
const rawPort = (await firstLine(raw, 'the raw server')).port;
const tenId = idOf(await upload(ten, 'ten.bin'));
/** MiB/s of `service` and of `baseline`, ROUNDS rounds, each round one of each (load drift hits both). */
const timedPair = async (service, baseline) => {
  const ms = [0, 0];
  for (let i = 0; i < rounds; i += 1) {
    ms[0] += (await service()).ms;
    ms[1] += (await baseline()).ms;
  }
  return ms.map((m) => mibps(10 * MiB * rounds, m));
};
const [down, rawDown] = await timedPair(
  () => send(service.port, { path: `/v1/attachments/${tenId}/content`, headers: auth }),
  () => send(rawPort, { path: '/file' }),
);
const [up, rawUp] = await timedPair(
  async () => {
    ten[0] ^= 1;
    return upload(ten, 'up.bin');
  },
  () =>
    send(rawPort, { method: 'POST', path: '/upload', headers: { 'content-length': String(ten.length) }, body: ten }),
);

// BURSTS x 50 concurrent 1 MiB uploads to each server in turn (to the service by 5 users each
// time: 50 unattached each at most), and the reader's GETs of a ticket all along.
const json = (body) => ({ 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
const uploaders = [];
for (let i = 0; i < 5 * bursts; i += 1) {
  const user = JSON.stringify({
    name: `Agent ${i}`,
    email: `agent${i}@example.com`,
    role: 'agent',
    password: `bench-agent-${i}`,
  });
  await send(service.port, {
    method: 'POST',
    path: '/v1/users',
    headers: { ...auth, ...json(user) },
    body: Buffer.from(user),
  });
  const grant = JSON.stringify({
    grant_type: 'password',
    username: `agent${i}@example.com`,
    password: `bench-agent-${i}`,
  });
  const t = await send(service.port, {
    method: 'POST',
    path: '/v1/oauth/token',
    headers: json(grant),
    body: Buffer.from(grant),
  });
  uploaders.push({ authorization: `Bearer ${JSON.parse(t.text).access_token}` });
}
const reader = spawn(process.execPath, [fileURLToPath(new URL('./attachments-reader.mjs', import.meta.url))], {
  env: {
    ...process.env,
    SERVICE: String(service.port),
    RAW: String(rawPort),
    CA: tls.certFile,
    TOKEN: service.token,
    TICKET: ticket,
  },
  stdio: ['pipe', 'pipe', 'inherit'],
});
const readings = new Promise((resolve, reject) => {
  let out = '';
  reader.stdout.setEncoding('utf8').on('data', (s) => (out += s));
  reader.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the reader exited ${code}`))));
});
const phase = (name) => reader.stdin.write(`${name}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// The bodies are made before the bursts: making 50 MiB of random bytes is not the servers' work.
const bodies = Array.from({ length: 50 }, () => randomBytes(MiB));
const answers = { service: [], raw: [] };
const burstMs = { service: 0, raw: 0 };
const burst = async (target, b) => {
  phase(`${target} quiet`);
  await sleep(2000);
  phase(`${target} busy`);
  const started = performance.now();
  const port = target === 'service' ? service.port : rawPort;
  const path = target === 'service' ? '/v1/uploads?filename=one.bin' : '/upload';
  answers[target].push(
    ...(await Promise.all(
      bodies.map((body, i) => {
        body[0] ^= 1;
        const headers = { 'content-type': 'application/octet-stream', 'content-length': String(MiB) };
        return send(port, {
          method: 'POST',
          path,
          headers: target === 'service' ? { ...uploaders[b * 5 + (i % 5)], ...headers } : headers,
          body,
        }).catch((e) => ({ status: 0, text: e.message }));
      }),
    )),
  );
  burstMs[target] += performance.now() - started;
  phase('idle');
  await sleep(500);
};
for (let b = 0; b < bursts; b += 1) {
  await burst('service', b);
  await burst('raw', b);
}
reader.stdin.end('end\n');
const samples = await readings;
const sorted = (key) => (samples[key] ?? []).sort((a, b) => a - b);
await stop(raw);
await stop(service.child);
agent.destroy();
rmSync(dir, { recursive: true, force: true });

const ratio = (a, b) => (a / b).toFixed(2);
console.log(
  pinning.pinned ? `servers pinned to CPU ${pinning.serverCpu}, clients to CPU ${pinning.loadCpu}` : 'unpinned',
);
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (2 cores)`,
);
console.log(
  `RSS: +${((r1 - r0) / MiB).toFixed(1)} MiB for a 25 MiB upload, +${((r2 - r1) / MiB).toFixed(1)} MiB for its download (goal < 5 each)`,
);
console.log(
  `download 10 MiB x${rounds}: service ${down.toFixed(0)} MiB/s, raw ${rawDown.toFixed(0)} MiB/s: ${ratio(down, rawDown)}x (goal >= 0.8)`,
);
console.log(
  `upload 10 MiB x${rounds}: service ${up.toFixed(0)} MiB/s, raw with fsync ${rawUp.toFixed(0)} MiB/s: ${ratio(up, rawUp)}x (goal >= 0.6)`,
);
const failed = [
  ...answers.service.map((a) => ({ ...a, text: `service: ${a.text}` })),
  ...answers.raw.map((a) => ({ ...a, text: `raw: ${a.text}` })),
].filter((a) => a.status !== 201);
const spread = (s) =>
  `p50 ${p(s, 0.5).toFixed(1)}, p90 ${p(s, 0.9).toFixed(1)}, p99 ${p(s, 0.99).toFixed(1)}, max ${s.at(-1).toFixed(1)} ms (${s.length} reads)`;
const p99 = {};
for (const target of ['service', 'raw']) {
  const busy = sorted(`${target} busy`);
  const quiet = sorted(`${target} quiet`);
  p99[target] = p(busy, 0.99) / p(quiet, 0.99);
  console.log(
    `${target}: ${bursts} x 50 concurrent 1 MiB uploads, ${(burstMs[target] / bursts).toFixed(0)} ms a burst (${mibps(50 * MiB * bursts, burstMs[target]).toFixed(0)} MiB/s)`,
  );
  console.log(`  GET ticket during the uploads: ${spread(busy)}`);
  console.log(`  GET ticket in the quiet windows: ${spread(quiet)}`);
}
console.log(
  `uploads answered: ${answers.service.length + answers.raw.length - failed.length} x 201, ${failed.length} other (${[...new Set(failed.map((a) => `${a.status} ${a.text.slice(0, 100)}`))].join('; ')})`,
);
console.log(
  `GET ticket p99 during / without: service ${p99.service.toFixed(2)}x (goal <= 2), raw node:https ${p99.raw.toFixed(2)}x`,
);
if (failed.length > 0) process.exitCode = 1;
