// Soak (not a test): the real service in a child process (the entry point of `@support/server/main`,
// SOAK_STORE: embedded (default) or memory, the real argon2id hasher), driven over HTTPS at a fixed rate of mixed reads and
// writes for SOAK_SECONDS, printing once a minute (SOAK_REPORT_S): requests answered and per
// second, latency p50/p99/max, 5xx and transport errors, the server's RSS and CPU share, the
// machine's load average, and the size of what it stores (tickets, change-feed events), so
// growth that follows the data can be told from growth that does not.
//
//   npx -y pnpm@10 bench:soak                        # builds, then 10 minutes
//   SOAK_SECONDS=180 SOAK_RATE=300 node benchmarks/dist/soak.js
//   SOAK_WRITES=0 node benchmarks/dist/soak.js           # reads only: the store stops growing
//   SOAK_WRITES=patch node benchmarks/dist/soak.js       # writes are PATCHes only: no new records
//   SOAK_IDEMPOTENT=1 node benchmarks/dist/soak.js       # every POST with a fresh Idempotency-Key (kept answers)
//
// The load is open-loop: requests start on a fixed schedule whatever the answers do (a slow
// server shows as latency and, past SOAK_MAX_IN_FLIGHT, as requests not sent, never as a
// politely lower rate). The mix, by weight: ticket lists (plain, filtered and searched, as an
// admin and as customers), single tickets (a third revalidated with If-None-Match), a ticket's
// messages, /v1/users/me, the change feed; writes ~22%: new tickets (customers), PATCH of state
// and priority (admin), new messages. Exit code 1 when any 5xx or transport error was seen.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { field, percentile, timedSend, type Call, type Timed } from './support/https-client.js';
import { cpuSeconds, residentMb } from './support/processes.js';
import { createTickets, createUser, login } from './support/seed.js';
import { knobSeconds } from './support/knobs.js';
import { seeded } from './support/seeded.js';
import { soakMix } from './soak-mix.js';
import { adminEmail, sleep, startServiceProcess } from './support/service.js';

const seconds = knobSeconds('SOAK_SECONDS', 600);
const rate = knobSeconds('SOAK_RATE', 250);
const reportEvery = knobSeconds('SOAK_REPORT_S', 60);
const maxInFlight = knobSeconds('SOAK_MAX_IN_FLIGHT', 256);
const seedTickets = knobSeconds('SOAK_TICKETS', 500);
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
const phrase = (n: number) => Array.from({ length: n }, () => pick(words)).join(' ');

// ---------------------------------------------------------------------------- the service

// SOAK_STORE: embedded (the default, on a fresh temporary DATA_DIR, removed at exit) or memory.
const store = process.env.SOAK_STORE ?? 'embedded';
const service = await startServiceProcess({
  env: { STORE: store, TOKEN_TTL_S: '86400' },
  stdout: 'pipe',
  maxSockets: 64,
});
const { child } = service.started;
// The JSON log lines: dropped (they would only grow this process), but the store's own (a failed
// commit) are counted, and shown with each report.
const storeLines: string[] = [];
if (child.stdout !== null)
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.includes('"embedded store:')) storeLines.push(line);
  });
const rssMb = () => residentMb(child.pid, 'VmRSS');

// ---------------------------------------------------------------------------- the client

const send = (method: string, path: string, call: Omit<Call, 'method' | 'path'> = {}): Promise<Timed> =>
  timedSend(service.http, {
    method,
    path,
    ...call,
    headers: {
      ...(call.body !== undefined && method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {}),
      ...call.headers,
    },
  });
const jsonOf = (a: Timed): unknown => (a.status === 0 || a.text === '' ? null : (JSON.parse(a.text) as unknown));
const lastSeq = (page: unknown): number | null =>
  Array.isArray(page) && page.length > 0 ? field(page[page.length - 1], 'seq', 'number') : null;

// ---------------------------------------------------------------------------- seed

const admin = service.token;
const customers: { id: number; token: string }[] = [];
for (let i = 0; i < 8; i++) {
  const email = `soak-customer-${i}@example.com`;
  const id = await createUser(service.http, admin, {
    name: `Customer ${i} ${pick(words)}`,
    email,
    password: 'soak-password',
    role: 'customer',
  });
  customers.push({ id, token: await login(service.http, email, 'soak-password') });
}
const tickets: { id: number; etag: string | null }[] = (
  await createTickets(
    service.http,
    admin,
    Array.from({ length: seedTickets }, () => ({
      subject: phrase(3),
      summary: phrase(12),
      customer_id: pick(customers).id,
    })),
    25,
  )
).map((id) => ({ id, etag: null }));

const feed = { newestSeq: 0 };
const next = soakMix({
  send,
  jsonOf,
  lastSeq,
  idOf: (a) => field(jsonOf(a), 'id', 'number'),
  admin,
  customers,
  tickets,
  draw: { int, pick, rng },
  words,
  once,
  writes: patchOnly ? 'patch' : writes ? 'mixed' : 'none',
  feed,
});

// ---------------------------------------------------------------------------- run

interface Window {
  latencies: number[];
  fiveXx: number;
  errors: number;
  notSent: number;
}
const freshWindow = (): Window => ({ latencies: [], fiveXx: 0, errors: 0, notSent: 0 });
let window = freshWindow();
let inFlight = 0;
const totals = { requests: 0, fiveXx: 0, errors: 0, notSent: 0 };
const errorKinds = new Map<string, number>();
interface Row {
  report: number;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  fiveXx: number;
  errors: number;
  notSent: number;
  rss: number;
  anon: number;
  file: number;
  cpu: number;
  load: number;
  tickets: number;
  events: number;
}
const rows: Row[] = [];
const started = performance.now();
const storeSize = async () => {
  const list = await send('GET', '/v1/tickets?per_page=1', { token: admin });
  // The feed's newest seq: read on from the last one known until a page comes back empty.
  for (let i = 0; i < 1_000; i++) {
    const page = await send('GET', `/v1/events?after=${feed.newestSeq}&per_page=100`, { token: admin });
    const seq = page.status === 200 ? lastSeq(jsonOf(page)) : null;
    if (seq === null) break;
    feed.newestSeq = seq;
  }
  return { tickets: list.status === 0 ? NaN : Number(list.headers['x-total-count']), events: feed.newestSeq };
};

let lastCpu = cpuSeconds(child.pid);
let lastReportAt = performance.now();
const report = async () => {
  const now = performance.now();
  const cpu = cpuSeconds(child.pid);
  // The server's share of one core over the window, and the machine's load: a p99 spike with a
  // load far above the core count is the machine's, not the service's.
  const cpuShare = (cpu - lastCpu) / ((now - lastReportAt) / 1000);
  lastCpu = cpu;
  lastReportAt = now;
  const w = window;
  window = freshWindow();
  const sorted = w.latencies.sort((a, b) => a - b);
  const size = await storeSize();
  const row: Row = {
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
    anon: residentMb(child.pid, 'RssAnon'),
    file: residentMb(child.pid, 'RssFile'),
    cpu: cpuShare,
    load: loadavg()[0] ?? NaN,
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
    const logged = JSON.parse(line) as { message?: string; released_bytes?: number; paused_ms?: number };
    console.log(
      `        store: ${logged.message ?? line}${logged.released_bytes === undefined ? '' : ` (${(logged.released_bytes / 1048576).toFixed(1)} MB let go, calls held ${logged.paused_ms ?? '?'} ms)`}`,
    );
  }
};

console.log(
  `soak: ${seconds} s at ${rate} requests/s, ${writes ? 'reads and writes' : 'reads only'}${idempotent ? ', every POST with an Idempotency-Key' : ''} (open loop, at most ${maxInFlight} in flight), ${seedTickets} tickets seeded, report every ${reportEvery} s; service pid ${child.pid ?? '?'} (${store} store, admin ${adminEmail}), RSS ${rssMb().toFixed(0)} MB after seeding`,
);
const tickMs = 10;
let scheduled = 0;
let nextReport = reportEvery * 1000;
await new Promise<void>((resolve) => {
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
          errorKinds.set(a.error ?? '?', (errorKinds.get(a.error ?? '?') ?? 0) + 1);
        }
      });
    }
  }, tickMs);
});
while (inFlight > 0) await sleep(50);
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
  const events = last.events - first.events;
  const rssGrowth = last.rss - first.rss;
  console.log(
    `from report ${first.report} to report ${last.report}: p99 ${first.p99.toFixed(1)} -> ${last.p99.toFixed(1)} ms, RSS ${first.rss.toFixed(0)} -> ${last.rss.toFixed(0)} MB ` +
      `(${rssGrowth >= 0 ? '+' : ''}${rssGrowth.toFixed(0)} MB; anon ${first.anon.toFixed(0)} -> ${last.anon.toFixed(0)} MB, file ${first.file.toFixed(0)} -> ${last.file.toFixed(0)} MB; for ${events} more events and ${last.tickets - first.tickets} more tickets stored: ` +
      `${events > 0 ? ((rssGrowth * 1024 * 1024) / events).toFixed(0) : 'n/a'} bytes per event)`,
  );
}
await service.stop();
process.exit(totals.fiveXx > 0 || totals.errors > 0 ? 1 : 0);
