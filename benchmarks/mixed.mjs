// Mixed load (not a test): both stores in one run, side by side, the same closed-loop traffic over
// HTTPS against the real service in a child process each (on one core with taskset where it
// exists), measured in alternating rounds: reads
// (one ticket, a search, a list page, a ticket with embed=customer, evenly) and PATCHes of random
// tickets at each write share. Prints requests/s, p99 of all, of reads and of writes, per store
// and share, and the embedded / memory ratios; a share of 0 gives the reads' p99 without writes.
//
//   npx -y pnpm@10 bench:mixed                       # builds, then ~2 × 4 × MIXED_SECONDS
//   MIXED_SECONDS=60 MIXED_ROUNDS=4 MIXED_WRITES=0,5,20,50 MIXED_CONNECTIONS=16 MIXED_TICKETS=2000 node benchmarks/mixed.mjs
import { execFileSync, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect } from 'node:tls';
import { fileURLToPath } from 'node:url';

const seconds = Number(process.env.MIXED_SECONDS ?? 20);
const shares = (process.env.MIXED_WRITES ?? '0,5,20,50').split(',').map(Number);
const connections = Number(process.env.MIXED_CONNECTIONS ?? 16);
const seedTickets = Number(process.env.MIXED_TICKETS ?? 2000);
const mainJs = fileURLToPath(new URL('../packages/server/dist/src/main.js', import.meta.url));
const password = 'mixed-admin-password';
const words = ['printer', 'invoice', 'refund', 'login', 'export', 'quasar', 'network', 'billing'];
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = (xs) => xs[Math.floor(random() * xs.length)];
const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true']);
    return true;
  } catch {
    return false;
  }
})();

const startService = async (store) => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-mixed-'));
  const args = [process.execPath, mainJs];
  const child = spawn(hasTaskset ? 'taskset' : args[0], hasTaskset ? ['-c', '1', ...args] : args.slice(1), {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      STORE: store,
      DATA_DIR: dir,
      ADMIN_PASSWORD: password,
      RATE_LIMIT: '1000000000',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (s) => (err += s));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner: ${err}`)), 60_000);
    const look = () => {
      const m = /listening on https:\/\/localhost:(\d+)/.exec(err);
      if (m && /docs: \S+/.test(err)) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stderr.on('data', look);
  });
  const ca = await new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }, () => {
      resolve(new X509Certificate(socket.getPeerCertificate().raw).toString());
      socket.end();
    });
    socket.on('error', reject);
  });
  const agent = new Agent({ keepAlive: true, maxSockets: connections, ca });
  const send = (method, path, token, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? null : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      const headers = {};
      if (token) headers.Authorization = `Bearer ${token}`;
      if (payload) {
        headers['Content-Type'] = typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json';
        headers['Content-Length'] = payload.length;
      }
      const req = request({ host: '127.0.0.1', port, method, path, headers, agent, servername: 'localhost' }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(payload ?? undefined);
    });
  const stop = async () => {
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((r) => child.on('close', r));
    rmSync(dir, { recursive: true, force: true });
  };
  return { send, stop };
};

const percentile = (xs, p) => {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** A started service with its seeded tickets and one run of the mix at a write share. */
const prepare = async (store) => {
  const s = await startService(store);
  const grant = await s.send(
    'POST',
    '/v1/oauth/token',
    null,
    `grant_type=password&username=admin%40example.com&password=${password}`,
  );
  const token = JSON.parse(grant.text).access_token;
  const customer = JSON.parse(
    (
      await s.send('POST', '/v1/users', token, {
        name: 'Mixed Customer',
        email: 'mixed@example.com',
        role: 'customer',
        password: 'mixed-customer-1',
      })
    ).text,
  ).id;
  const ids = [];
  for (let i = 0; i < seedTickets; i += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, seedTickets - i) }, (_, k) =>
        s.send('POST', '/v1/tickets', token, {
          subject: `${pick(words)} ${pick(words)} ${i + k}`,
          summary: `${pick(words)} ${pick(words)}`,
          customer_id: customer,
        }),
      ),
    );
    for (const a of batch) ids.push(JSON.parse(a.text).id);
  }
  const reads = [
    () => s.send('GET', `/v1/tickets/${pick(ids)}`, token),
    () => s.send('GET', `/v1/tickets?q=${pick(words)}&per_page=30`, token),
    () => s.send('GET', `/v1/tickets?per_page=30&page=${1 + Math.floor(random() * 20)}`, token),
    () => s.send('GET', `/v1/tickets/${pick(ids)}?embed=customer`, token),
  ];
  const run = async (share, lat) => {
    let errors = 0;
    let count = 0;
    const until = performance.now() + (seconds * 1000) / rounds;
    const worker = async () => {
      while (performance.now() < until) {
        const write = random() * 100 < share;
        const t0 = performance.now();
        const a = write
          ? await s.send('PATCH', `/v1/tickets/${pick(ids)}`, token, {
              priority: pick(['low', 'normal', 'high', 'urgent']),
            })
          : await pick(reads)();
        if (a.status >= 500) errors += 1;
        count += 1;
        lat[write ? 'write' : 'read'].push(performance.now() - t0);
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: connections }, worker));
    return { count, seconds: (performance.now() - t0) / 1000, errors };
  };
  return { run, stop: s.stop };
};

// Both services run side by side; each share is measured in alternating rounds (memory, embedded,
// memory, ...), so that the machine's changing load falls on both alike.
const rounds = Number(process.env.MIXED_ROUNDS ?? 4);
const stores = { memory: await prepare('memory'), embedded: await prepare('embedded') };
const results = { memory: [], embedded: [] };
for (const share of shares) {
  const acc = {};
  for (const name of ['memory', 'embedded'])
    acc[name] = { lat: { read: [], write: [] }, count: 0, seconds: 0, errors: 0 };
  for (let round = 0; round < rounds; round += 1)
    for (const name of round % 2 === 0 ? ['memory', 'embedded'] : ['embedded', 'memory']) {
      const r = await stores[name].run(share, acc[name].lat);
      acc[name].count += r.count;
      acc[name].seconds += r.seconds;
      acc[name].errors += r.errors;
    }
  for (const name of ['memory', 'embedded']) {
    const { lat, count, errors } = acc[name];
    const all = [...lat.read, ...lat.write];
    results[name].push({
      share,
      rps: count / acc[name].seconds,
      p99: percentile(all, 99),
      readP99: percentile(lat.read, 99),
      writeP99: percentile(lat.write, 99),
      errors,
      load: loadavg()[0],
    });
  }
}
for (const s of Object.values(stores)) await s.stop();
const memory = results.memory;
const embedded = results.embedded;

const f = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-');
console.log(
  `mixed load: ${connections} connections, ${seconds} s per share, ${seedTickets} tickets, server ${hasTaskset ? 'on one core (taskset -c 1)' : 'on all cores'}, load ${loadavg()[0].toFixed(1)} at start`,
);
console.log(
  '| writes | memory req/s | embedded req/s | ratio | memory p99 | embedded p99 | ratio | reads p99 mem / emb | writes p99 mem / emb | 5xx | load |',
);
console.log('|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
for (let i = 0; i < shares.length; i += 1) {
  const m = memory[i];
  const e = embedded[i];
  console.log(
    `| ${m.share}% | ${f(m.rps)} | ${f(e.rps)} | ${f(e.rps / m.rps, 2)}x | ${f(m.p99, 1)} ms | ${f(e.p99, 1)} ms | ${f(e.p99 / m.p99, 2)}x | ` +
      `${f(m.readP99, 1)} / ${f(e.readP99, 1)} ms | ${f(m.writeP99, 1)} / ${f(e.writeP99, 1)} ms | ${m.errors + e.errors} | ${f(e.load, 1)} |`,
  );
}
const base = embedded.find((r) => r.share === 0);
if (base)
  for (const r of embedded.filter((x) => x.share > 0))
    console.log(
      `embedded reads' p99 at ${r.share}% writes / without writes: ${f(r.readP99 / base.readP99, 2)}x (goal <= 1.5x)`,
    );
