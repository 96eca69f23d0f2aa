// Attachments (contract §9), measured (not a test): the real service on the embedded store in a
// child process, beside a raw node:https server in the same run (attachments-raw.mjs).
//   - memory: the service's RSS before and after a 25 MiB upload and a 25 MiB download (after
//     one warm-up of each), goal: grows < 5 MiB for each (the bytes stream, never held whole);
//   - download: a 10 MiB file fetched ROUNDS times through GET .../content against the raw
//     server piping the same file from disk, goal >= 0.8x;
//   - upload: 10 MiB posted ROUNDS times to POST /v1/uploads against the raw server writing
//     the body to disk with fsync, goal >= 0.6x;
//   - 50 concurrent 1 MiB uploads: no error, no 5xx; the p99 of GET /v1/tickets/{id} while they
//     run, against its p99 without them, goal <= 2x.
//   npx -y pnpm@10 bench:attachments        ROUNDS=10 by default
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCertificate } from './anchors/cert.mjs';
import { firstLine, rssBytes, startNode, stop } from './anchors/processes.mjs';
import { startService } from './anchors/service.mjs';

const rounds = Number(process.env.ROUNDS ?? 10);
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
  prefix: [],
  tls,
  tickets: 20,
  env: { STORE: 'embedded', DATA_DIR: join(dir, 'data'), UPLOAD_MAX_BYTES: String(30 * MiB) },
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
const raw = startNode([], [fileURLToPath(new URL('./attachments-raw.mjs', import.meta.url))], {
  env: { ...process.env, CERT: tls.certFile, KEY: tls.keyFile, FILE: file, DIR: dir },
});
const rawPort = (await firstLine(raw, 'the raw server')).port;
const tenId = idOf(await upload(ten, 'ten.bin'));
const timed = async (run) => {
  let ms = 0;
  for (let i = 0; i < rounds; i += 1) ms += (await run()).ms;
  return mibps(10 * MiB * rounds, ms);
};
const down = await timed(() => send(service.port, { path: `/v1/attachments/${tenId}/content`, headers: auth }));
const rawDown = await timed(() => send(rawPort, { path: '/file' }));
const up = await timed(async () => {
  ten[0] ^= 1;
  return upload(ten, 'up.bin');
});
const rawUp = await timed(() =>
  send(rawPort, { method: 'POST', path: '/upload', headers: { 'content-length': String(ten.length) }, body: ten }),
);
await stop(raw);

// 50 concurrent 1 MiB uploads (by 5 users: 50 unattached each at most), and GET ticket's p99 meanwhile.
const ticket = `/v1/tickets/${service.ticketIds[0]}`;
const json = (body) => ({ 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
const uploaders = [];
for (let i = 0; i < 5; i += 1) {
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
const reads = async (until) => {
  const ms = [];
  while (!until()) ms.push((await send(service.port, { path: ticket, headers: auth })).ms);
  return ms.sort((a, b) => a - b);
};
let quietDone = false;
setTimeout(() => (quietDone = true), 5000);
const quiet = await reads(() => quietDone);
let loadDone = false;
const during = reads(() => loadDone);
const answers = await Promise.all(
  Array.from({ length: 50 }, (_, i) =>
    send(service.port, {
      method: 'POST',
      path: '/v1/uploads?filename=one.bin',
      headers: {
        ...uploaders[i % uploaders.length],
        'content-type': 'application/octet-stream',
        'content-length': String(MiB),
      },
      body: randomBytes(MiB),
    }).catch((e) => ({ status: 0, text: e.message })),
  ),
);
loadDone = true;
const busy = await during;
await stop(service.child);
agent.destroy();
rmSync(dir, { recursive: true, force: true });

const failed = answers.filter((a) => a.status !== 201);
const ratio = (a, b) => (a / b).toFixed(2);
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
console.log(
  `50 concurrent 1 MiB uploads: ${50 - failed.length} x 201, ${failed.length} other (${failed.map((a) => a.status).join(',')})`,
);
console.log(
  `GET ticket p99: ${p(busy, 0.99)?.toFixed(1)} ms during the uploads (${busy.length} reads), ${p(quiet, 0.99).toFixed(1)} ms without (${quiet.length}): ${ratio(p(busy, 0.99), p(quiet, 0.99))}x (goal <= 2)`,
);
if (failed.length > 0) process.exitCode = 1;
