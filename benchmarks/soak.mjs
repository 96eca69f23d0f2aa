// Soak (not a test): the real service in a child process (`node packages/server/dist/src/main.js`,
// SOAK_STORE: embedded (default) or memory, the real argon2id hasher), driven over HTTPS at a fixed rate of mixed reads and
// writes for SOAK_SECONDS, printing once a minute (SOAK_REPORT_S): requests answered and per
// second, latency p50/p99/max, 5xx and transport errors, the server's RSS and CPU share, the
// machine's load average, and the size of what it stores (tickets, change-feed events), so
// growth that follows the data can be told from growth that does not.
//
//   npx -y pnpm@10 bench:soak                        # builds, then 10 minutes
//   SOAK_SECONDS=180 SOAK_RATE=300 node benchmarks/soak.mjs
//   SOAK_WRITES=0 node benchmarks/soak.mjs           # reads only: the store stops growing
//   SOAK_WRITES=patch node benchmarks/soak.mjs       # writes are PATCHes only: no new records
//   SOAK_IDEMPOTENT=1 node benchmarks/soak.mjs       # every POST with a fresh Idempotency-Key (kept answers)
//
// The load is open-loop: requests start on a fixed schedule whatever the answers do (a slow
// server shows as latency and, past SOAK_MAX_IN_FLIGHT, as requests not sent, never as a
// politely lower rate). The mix, by weight: ticket lists (plain, filtered and searched, as an
// admin and as customers), single tickets (a third revalidated with If-None-Match), a ticket's
// messages, /v1/users/me, the change feed; writes ~22%: new tickets (customers), PATCH of state
// and priority (admin), new messages. Exit code 1 when any 5xx or transport error was seen.
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { seeded } from './seeded.mjs';

const num = (name, fallback) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`${name} must be a positive number`);
    process.exit(2);
  }
  return n;
};
const seconds = num('SOAK_SECONDS', 600);
const rate = num('SOAK_RATE', 250);
const reportEvery = num('SOAK_REPORT_S', 60);
const maxInFlight = num('SOAK_MAX_IN_FLIGHT', 256);
const seedTickets = num('SOAK_TICKETS', 500);
// SOAK_WRITES=0: reads only, so the store stops growing and any RSS growth is the request path's.
const writes = process.env.SOAK_WRITES !== '0';
const patchOnly = process.env.SOAK_WRITES === 'patch';
// SOAK_IDEMPOTENT=1: every POST carries a fresh Idempotency-Key, so the store keeps each answer (24 h).
const idempotent = process.env.SOAK_IDEMPOTENT === '1';
let keys = 0;
const once = () => (idempotent ? { 'Idempotency-Key': `soak-${process.pid}-${(keys += 1)}` } : {});

const { int, pick, rng } = seeded(0x50a4);
const words = [
  'printer',
  'login',
  'password',
  'invoice',
  'refund',
  'vpn',
  'slow',
  'crash',
  'export',
  'wifi',
  'email',
  'backup',
];
const phrase = (n) => Array.from({ length: n }, () => pick(words)).join(' ');

// ---------------------------------------------------------------------------- the service

const mainJs = fileURLToPath(new URL('../packages/server/dist/src/main.js', import.meta.url));
const adminPassword = 'soak-admin-password';
// SOAK_STORE: embedded (the default, on a fresh temporary DATA_DIR, removed at exit) or memory.
const store = process.env.SOAK_STORE ?? 'embedded';
const dataDir = mkdtempSync(join(tmpdir(), 'soak-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const child = spawn(process.execPath, [mainJs], {
  env: {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    PORT: '0',
    ADMIN_PASSWORD: adminPassword,
    RATE_LIMIT: '1000000000',
    TOKEN_TTL_S: '86400',
    STORE: store,
    DATA_DIR: dataDir,
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
// The JSON log lines: dropped (they would only grow this process), but the store's own (a failed
// commit) are counted, and shown with each report.
const storeLines = [];
let partial = '';
child.stdout.setEncoding('utf8').on('data', (s) => {
  const lines = (partial + s).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) if (line.includes('"embedded store:')) storeLines.push(line);
});
child.stderr.setEncoding('utf8').on('data', (s) => {
  // The banner (stderr); keep it to find the port.
  if (out.length < 10_000) out += s;
  process.stderr.write(`[service] ${s}`);
});
const stopService = () => {
  if (child.exitCode === null) child.kill('SIGTERM');
};
process.on('exit', stopService);

const port = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no banner within 30 s:\n${out}`)), 30_000);
  const look = () => {
    const m = /listening on https:\/\/localhost:(\d+)/.exec(out);
    if (m !== null && /docs: \S+/.test(out)) {
      clearTimeout(timer);
      resolve(Number(m[1]));
    }
  };
  child.stderr.on('data', look);
  child.on('exit', (code) => reject(new Error(`the service exited (${code}) before listening`)));
});
const ca = await new Promise((resolve, reject) => {
  const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }, () => {
    const pem = new X509Certificate(socket.getPeerCertificate().raw).toString();
    socket.end();
    resolve(pem);
  });
  socket.on('error', reject);
});

/** The server's CPU seconds so far (user + system), from /proc (Linux). */
const cpuSeconds = () => {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
};

/**
 * The server's resident set, from /proc (Linux); `anon` is its own memory (heap, buffers),
 * `file` the pages of mapped files it has touched (the embedded store's LMDB map: page cache
 * the kernel takes back when it needs it, shared with every reader of the file).
 */
const residentMb = (field) => {
  try {
    const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
};
const rssMb = () => residentMb('VmRSS');

// ---------------------------------------------------------------------------- the client

const agent = new Agent({ keepAlive: true, maxSockets: 64, ca });
const send = (method, path, { token, body, headers = {} } = {}) =>
  new Promise((resolve) => {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const h = { ...headers };
    if (token !== undefined) h.Authorization = `Bearer ${token}`;
    if (payload !== null) {
      h['Content-Type'] = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
      h['Content-Length'] = String(payload.length);
    }
    const started = performance.now();
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: h, agent, servername: 'localhost' },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, ms: performance.now() - started });
        });
        res.on('error', (e) => resolve({ status: 0, error: e.message, ms: performance.now() - started }));
      },
    );
    req.on('error', (e) => resolve({ status: 0, error: e.message, ms: performance.now() - started }));
    req.end(payload ?? undefined);
  });

const must = async (status, what, answer) => {
  const a = await answer;
  if (a.status !== status) throw new Error(`${what}: ${a.status} ${a.text ?? a.error}`);
  return a.text === '' ? null : JSON.parse(a.text);
};
const login = async (email, password) =>
  (
    await must(
      200,
      `login ${email}`,
      send('POST', '/v1/oauth/token', { body: { grant_type: 'password', username: email, password } }),
    )
  ).access_token;

// ---------------------------------------------------------------------------- seed

const admin = await login('admin@example.com', adminPassword);
const customers = [];
for (let i = 0; i < 8; i++) {
  const email = `soak-customer-${i}@example.com`;
  const user = await must(
    201,
    'a customer',
    send('POST', '/v1/users', {
      token: admin,
      body: { name: `Customer ${i} ${pick(words)}`, email, password: 'soak-password', role: 'customer' },
    }),
  );
  customers.push({ id: user.id, token: await login(email, 'soak-password') });
}
const tickets = [];
for (let i = 0; i < seedTickets; i += 25) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(25, seedTickets - i) }, () =>
      must(
        201,
        'a ticket',
        send('POST', '/v1/tickets', {
          token: admin,
          body: { subject: phrase(3), summary: phrase(12), customer_id: pick(customers).id },
        }),
      ),
    ),
  );
  for (const t of batch) tickets.push({ id: t.id, etag: null });
}

// ---------------------------------------------------------------------------- the mix

let newestSeq = 0;
const mix = [
  [14, () => send('GET', '/v1/tickets?per_page=30', { token: admin })],
  [8, () => send('GET', `/v1/tickets?state=open,pending&sort=-priority,created_at&q=${pick(words)}`, { token: admin })],
  [8, () => send('GET', '/v1/tickets?per_page=10', { token: pick(customers).token })],
  [
    12,
    async () => {
      const t = pick(tickets);
      const a = await send('GET', `/v1/tickets/${t.id}`, { token: admin });
      if (a.status === 200) t.etag = a.headers.etag ?? null;
      return a;
    },
  ],
  [
    8,
    () => {
      const t = pick(tickets);
      return send('GET', `/v1/tickets/${t.id}`, {
        token: admin,
        headers: t.etag === null ? {} : { 'If-None-Match': t.etag },
      });
    },
  ],
  [8, () => send('GET', `/v1/tickets/${pick(tickets).id}/messages`, { token: admin })],
  [5, () => send('GET', '/v1/users/me', { token: pick(customers).token })],
  [
    3,
    async () => {
      const a = await send('GET', `/v1/events?after=${Math.max(0, newestSeq - 20)}&per_page=30`, { token: admin });
      if (a.status === 200) {
        const page = JSON.parse(a.text);
        if (page.length > 0) newestSeq = Math.max(newestSeq, page[page.length - 1].seq);
      }
      return a;
    },
  ],
  [
    7,
    async () => {
      const c = pick(customers);
      const a = await send('POST', '/v1/tickets', {
        token: c.token,
        body: { subject: phrase(3), summary: phrase(10) },
        headers: once(),
      });
      if (a.status === 201) tickets.push({ id: JSON.parse(a.text).id, etag: null });
      return a;
    },
  ],
  [
    9,
    () =>
      send('PATCH', `/v1/tickets/${pick(tickets).id}`, {
        token: admin,
        body:
          rng() < 0.5
            ? { priority: pick(['low', 'normal', 'high', 'urgent']) }
            : { state: pick(['open', 'pending', 'closed']) },
      }),
  ],
  [
    6,
    () =>
      send('POST', `/v1/tickets/${pick(tickets).id}/messages`, {
        token: admin,
        body: { body: phrase(8), internal: rng() < 0.3 },
        headers: once(),
      }),
  ],
];
// The last three entries are the writes. SOAK_WRITES=patch: the same share of writes, all of them
// PATCHes of existing tickets, so that the store holds as many records at the end as at the start
// and any RSS growth is the service's own (the change feed's events go to LMDB, not to memory).
if (!writes) mix.splice(mix.length - 3, 3);
if (patchOnly) {
  const [, [, patch]] = mix.splice(mix.length - 3, 3); // new tickets, PATCH, new messages
  mix.push([22, patch]);
}
const totalWeight = mix.reduce((s, [w]) => s + w, 0);
const next = () => {
  let x = int(totalWeight);
  for (const [w, f] of mix) {
    if (x < w) return f;
    x -= w;
  }
  return mix[0][1];
};

// ---------------------------------------------------------------------------- run

const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
let window = { latencies: [], fiveXx: 0, errors: 0, notSent: 0, statuses: new Map() };
let inFlight = 0;
const totals = { requests: 0, fiveXx: 0, errors: 0, notSent: 0 };
const errorKinds = new Map();
const rows = [];
const started = performance.now();
const storeSize = async () => {
  const list = await send('GET', '/v1/tickets?per_page=1', { token: admin });
  // The feed's newest seq: read on from the last one known until a page comes back empty.
  for (let i = 0; i < 1_000; i++) {
    const feed = await send('GET', `/v1/events?after=${newestSeq}&per_page=100`, { token: admin });
    const page = feed.status === 200 ? JSON.parse(feed.text) : [];
    if (page.length === 0) break;
    newestSeq = page[page.length - 1].seq;
  }
  return { tickets: Number(list.headers['x-total-count']), events: newestSeq };
};

let lastCpu = cpuSeconds();
let lastReportAt = performance.now();
const report = async () => {
  const now = performance.now();
  const cpu = cpuSeconds();
  // The server's share of one core over the window, and the machine's load: a p99 spike with a
  // load far above the core count is the machine's, not the service's.
  const cpuShare = (cpu - lastCpu) / ((now - lastReportAt) / 1000);
  lastCpu = cpu;
  lastReportAt = now;
  const w = window;
  window = { latencies: [], fiveXx: 0, errors: 0, notSent: 0, statuses: new Map() };
  const sorted = w.latencies.sort((a, b) => a - b);
  const size = await storeSize();
  const row = {
    report: rows.length + 1,
    requests: sorted.length,
    perSecond: sorted.length / reportEvery,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    fiveXx: w.fiveXx,
    errors: w.errors,
    notSent: w.notSent,
    rss: rssMb(),
    anon: residentMb('RssAnon'),
    file: residentMb('RssFile'),
    cpu: cpuShare,
    load: loadavg()[0],
    ...size,
  };
  rows.push(row);
  console.log(
    `${String(Math.round((performance.now() - started) / 1000)).padStart(5)} s  ${String(row.requests).padStart(7)} req  ${row.perSecond.toFixed(0).padStart(5)}/s  ` +
      `p50 ${row.p50.toFixed(1).padStart(6)} ms  p99 ${row.p99.toFixed(1).padStart(6)} ms  max ${row.max.toFixed(0).padStart(5)} ms  ` +
      `5xx ${row.fiveXx}  errors ${row.errors}  not sent ${row.notSent}  RSS ${row.rss.toFixed(0).padStart(4)} MB (anon ${row.anon.toFixed(0)}, file ${row.file.toFixed(0)})  ` +
      `server CPU ${(row.cpu * 100).toFixed(0).padStart(3)}%  load ${row.load.toFixed(1)}  tickets ${row.tickets}  events ${row.events}`,
  );
  for (const line of storeLines.splice(0)) {
    const { message, released_bytes: released, paused_ms: paused } = JSON.parse(line);
    console.log(
      `        store: ${message}${released === undefined ? '' : ` (${(released / 1048576).toFixed(1)} MB let go, calls held ${paused} ms)`}`,
    );
  }
};

console.log(
  `soak: ${seconds} s at ${rate} requests/s, ${writes ? 'reads and writes' : 'reads only'}${idempotent ? ', every POST with an Idempotency-Key' : ''} (open loop, at most ${maxInFlight} in flight), ${seedTickets} tickets seeded, report every ${reportEvery} s; service pid ${child.pid}, RSS ${rssMb().toFixed(0)} MB after seeding`,
);
const tickMs = 10;
let scheduled = 0;
let nextReport = reportEvery * 1000;
await new Promise((resolve) => {
  const timer = setInterval(() => {
    const elapsed = performance.now() - started;
    if (elapsed >= seconds * 1000) {
      clearInterval(timer);
      resolve();
      return;
    }
    if (elapsed >= nextReport) {
      nextReport += reportEvery * 1000;
      void report();
    }
    // Owed by the clock, not by ticks: a late timer sends the requests it missed.
    const owed = Math.floor((rate * elapsed) / 1000) - scheduled;
    for (let i = 0; i < owed; i++) {
      scheduled += 1;
      if (inFlight >= maxInFlight) {
        window.notSent += 1;
        totals.notSent += 1;
        continue;
      }
      inFlight += 1;
      void next()().then((a) => {
        inFlight -= 1;
        totals.requests += 1;
        window.latencies.push(a.ms);
        if (a.status >= 500) {
          window.fiveXx += 1;
          totals.fiveXx += 1;
        } else if (a.status === 0) {
          window.errors += 1;
          totals.errors += 1;
          errorKinds.set(a.error, (errorKinds.get(a.error) ?? 0) + 1);
        }
      });
    }
  }, tickMs);
});
while (inFlight > 0) await new Promise((r) => setTimeout(r, 50));
if (rows.length === 0 || performance.now() - started - rows.length * reportEvery * 1000 > 1000) await report();

// ---------------------------------------------------------------------------- verdict

const full = rows.filter((r) => r.requests > 0);
const first = full[Math.min(1, full.length - 1)];
const last = full[full.length - 1];
console.log(
  `\ntotal: ${totals.requests} requests, ${totals.fiveXx} 5xx, ${totals.errors} transport errors, ${totals.notSent} not sent`,
);
for (const [message, n] of errorKinds) console.log(`  transport error x${n}: ${message}`);
if (first !== undefined && last !== undefined && first !== last) {
  const writes = last.events - first.events;
  const rssGrowth = last.rss - first.rss;
  console.log(
    `from report ${first.report} to report ${last.report}: p99 ${first.p99.toFixed(1)} -> ${last.p99.toFixed(1)} ms, RSS ${first.rss.toFixed(0)} -> ${last.rss.toFixed(0)} MB ` +
      `(${rssGrowth >= 0 ? '+' : ''}${rssGrowth.toFixed(0)} MB; anon ${first.anon.toFixed(0)} -> ${last.anon.toFixed(0)} MB, file ${first.file.toFixed(0)} -> ${last.file.toFixed(0)} MB; for ${writes} more events and ${last.tickets - first.tickets} more tickets stored: ` +
      `${writes > 0 ? ((rssGrowth * 1024 * 1024) / writes).toFixed(0) : 'n/a'} bytes per event)`,
  );
}
stopService();
await new Promise((r) => child.once('exit', r));
process.exit(totals.fiveXx > 0 || totals.errors > 0 ? 1 : 0);
