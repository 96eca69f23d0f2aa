// Benchmark (not a test): the real service over HTTPS, under concurrent load.
//
//   npx -y pnpm@10 bench:http                       # builds, then ~100 s in all
//   BENCH_TICKETS=5000 BENCH_SECONDS=3 node benchmarks/dist/http-load.js
//
// It starts the composition root in this process (memory store, the real argon2id hasher with
// its bounded concurrency, an ephemeral HTTPS port), seeds BENCH_TICKETS tickets over HTTPS
// (support/seed.ts, 16 requests in flight), then drives it with the shared HTTPS client over
// keep-alive connections (one client per run, a connection per worker, the server's certificate
// pinned). Each endpoint runs for BENCH_SECONDS at concurrency 1, 8 and 32 (closed loop: each
// worker sends its next request when the previous answer has been read). Client and server
// share the process and the machine, which is shared and noisy, so each endpoint's throughput
// is also given as a ratio to GET /healthz (no auth, no store) measured at the same concurrency
// in the same run.
//
// Then a login flood: 32 workers POST /v1/oauth/token (argon2id verify) while 4 workers GET
// /v1/tickets/{id}; the GET latencies are compared with the same 4 workers without the flood.
// Finally it checks the store: X-Total-Count of GET /v1/tickets = seeded + created by POST, and
// no 5xx (nor any status other than the one expected) anywhere (exit code 1 otherwise).
import { performance } from 'node:perf_hooks';
import { closedLoop, type Call, type LoopResult } from './support/https-client.js';
import { startInProcess } from './support/in-process.js';
import { knob, knobList, knobSeconds, load } from './support/knobs.js';
import { createTickets, createUser, type TicketBody } from './support/seed.js';
import { capital, seeded, wordsOf } from './support/seeded.js';
import { adminEmail, adminPassword } from './support/service.js';

// ---------------------------------------------------------------------------- configuration

const seedCount = knob('BENCH_TICKETS', 20_000, 100);
const seconds = knobSeconds('BENCH_SECONDS', 5);
const concurrencies = knobList('BENCH_CONCURRENCY', '1,8,32', 1);
const floodWorkers = 32;
const floodReaders = 4;

// ---------------------------------------------------------------------------- data

const { int, pick, zipfOver } = seeded(0x2545f491);

const vocabulary = wordsOf(`printer error login password email account cannot access invoice payment refund order
  shipping delivery broken slow crash update install screen network connection wifi vpn server
  timeout report export import file upload download sync calendar meeting phone mobile app browser
  page loading blank button missing data lost backup restore license key subscription renewal`);
/** Zipf (s = 1): the first words are common (`printer` is in ~1 subject in 4). */
const zipf = zipfOver(vocabulary);
const commonWord = vocabulary[0] ?? '';
const words = (min: number, max: number) => Array.from({ length: min + int(max - min + 1) }, zipf);
const priorities = ['low', 'normal', 'normal', 'normal', 'high', 'urgent'];
const customers: number[] = [];
const ticketBody = (): TicketBody => ({
  subject: capital(words(3, 6).join(' ')),
  summary: `${capital(words(8, 20).join(' '))}.`,
  priority: pick(priorities),
  customer_id: pick(customers),
});

// ---------------------------------------------------------------------------- the runs

const t0 = performance.now();
const service = await startInProcess();
const { server, http, token } = service;

/** Status counts per endpoint, over the whole run. */
const statuses = new Map<string, Map<number | 'transport error', number>>();
const tally = (name: string, status: number | 'transport error') => {
  const s = statuses.get(name) ?? new Map<number | 'transport error', number>();
  s.set(status, (s.get(status) ?? 0) + 1);
  statuses.set(name, s);
};
let created = 0;
let transportErrors = 0;
/** Answers whose status is not the scenario's expected one (200, or 201 for POST /v1/tickets). */
let unexpected = 0;

interface Scenario {
  readonly name: string;
  readonly expect?: number;
  readonly next: () => Call;
}

/** `workers` closed-loop workers send `next()` requests for `ms` over their own connections. */
const drive = async (scenario: Scenario, workers: number, ms: number): Promise<LoopResult> => {
  const client = service.client(workers, true);
  const result = await closedLoop(workers, ms, async () => {
    try {
      const a = await client.send(scenario.next());
      tally(scenario.name, a.status);
      if (a.status !== (scenario.expect ?? 200)) unexpected += 1;
      if (scenario.name === 'POST /v1/tickets' && a.status === 201) created += 1;
    } catch {
      transportErrors += 1;
      tally(scenario.name, 'transport error');
    }
  });
  client.close();
  return result;
};

// Customers (real argon2id hashes: a handful), then the tickets, over HTTPS.
for (let i = 1; i <= 10; i++) {
  customers.push(
    await createUser(http, token, {
      name: `Customer ${i}`,
      email: `customer${i}@example.com`,
      role: 'customer',
      password: `customer-password-${i}`,
    }),
  );
}
const seedStart = performance.now();
const ticketIds = await createTickets(service.client(16), token, Array.from({ length: seedCount }, ticketBody));
const seedMs = performance.now() - seedStart;
console.log(
  `http-load: ${seedCount} tickets seeded over HTTPS in ${(seedMs / 1000).toFixed(1)} s ` +
    `(${Math.round((seedCount / seedMs) * 1000)}/s); ${seconds} s per run, concurrency ${concurrencies.join(', ')}; ` +
    `Node ${process.version}, HTTPS on ${server.url}; ${load()}`,
);

const scenarios: Scenario[] = [
  { name: 'GET /healthz', next: () => ({ path: '/healthz' }) },
  { name: 'GET /v1/tickets', next: () => ({ path: '/v1/tickets', token }) },
  {
    name: `GET /v1/tickets?q=${commonWord}&sort=-priority`,
    next: () => ({ path: `/v1/tickets?q=${commonWord}&sort=-priority`, token }),
  },
  { name: 'GET /v1/tickets/{id}', next: () => ({ path: `/v1/tickets/${pick(ticketIds)}`, token }) },
  {
    name: 'POST /v1/tickets',
    expect: 201,
    next: () => ({ method: 'POST', path: '/v1/tickets', body: ticketBody(), token }),
  },
];

// Warm-up (JIT, TLS session setup paths), not counted in the tables; its POSTs are counted in `created`.
for (const s of scenarios) await drive(s, 8, 400);

const results = new Map<number, Map<string, LoopResult>>(); // concurrency -> name -> result
for (const c of concurrencies) {
  const row = new Map<string, LoopResult>();
  for (const s of scenarios) row.set(s.name, await drive(s, c, seconds * 1000));
  results.set(c, row);
}

const fmt = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lpad = (s: string | number, n: number) => String(s).padStart(n);
const width = Math.max(...scenarios.map((s) => s.name.length)) + 2;
console.log('');
console.log(
  `${pad('endpoint', width)}${lpad('conc', 5)}${lpad('req/s', 9)}${lpad('p50 ms', 9)}${lpad('p99 ms', 9)}${lpad('× healthz', 11)}`,
);
for (const s of scenarios) {
  for (const c of concurrencies) {
    const r = results.get(c)?.get(s.name);
    const base = results.get(c)?.get('GET /healthz');
    if (r === undefined || base === undefined) continue;
    console.log(
      `${pad(s.name, width)}${lpad(c, 5)}${lpad(Math.round(r.rps), 9)}${lpad(fmt(r.p50), 9)}${lpad(fmt(r.p99), 9)}${lpad(fmt(r.rps / base.rps), 11)}`,
    );
  }
}

// ---------------------------------------------------------------------------- login flood

const byId = scenarios[3];
if (byId === undefined) throw new Error('no GET /v1/tickets/{id} scenario');
const loginScenario: Scenario = {
  name: 'POST /v1/oauth/token',
  next: () => ({
    method: 'POST',
    path: '/v1/oauth/token',
    body: { grant_type: 'password', username: adminEmail, password: adminPassword },
  }),
};
const quiet = await drive(byId, floodReaders, seconds * 1000);
const [flooded, logins] = await Promise.all([
  drive(byId, floodReaders, seconds * 1000),
  drive(loginScenario, floodWorkers, seconds * 1000),
]);
console.log('');
console.log(
  `login flood: ${floodWorkers} workers POST /v1/oauth/token (argon2id) while ${floodReaders} workers GET /v1/tickets/{id}`,
);
console.log(
  `  logins:              ${fmt(logins.rps, 1)} req/s, p50 ${fmt(logins.p50, 0)} ms, p99 ${fmt(logins.p99, 0)} ms`,
);
console.log(
  `  GET without flood:   ${Math.round(quiet.rps)} req/s, p50 ${fmt(quiet.p50)} ms, p99 ${fmt(quiet.p99)} ms`,
);
console.log(
  `  GET during flood:    ${Math.round(flooded.rps)} req/s, p50 ${fmt(flooded.p50)} ms, p99 ${fmt(flooded.p99)} ms`,
);
console.log(
  `  ratio (flood/quiet): req/s ×${fmt(flooded.rps / quiet.rps)}, p50 ×${fmt(flooded.p50 / quiet.p50)}, p99 ×${fmt(flooded.p99 / quiet.p99)}`,
);

// ---------------------------------------------------------------------------- correctness

const check = await http.send({ path: '/v1/tickets?per_page=1', token });
const total = Number(check.headers['x-total-count']);
const expected = seedCount + created;
let fiveXx = 0;
console.log('');
console.log('statuses:');
for (const [name, counts] of statuses) {
  const parts = [...counts].sort((a, b) => String(a[0]).localeCompare(String(b[0]))).map(([st, n]) => `${st}×${n}`);
  for (const [st, n] of counts) if (typeof st === 'number' && st >= 500) fiveXx += n;
  console.log(`  ${pad(name, width)}${parts.join(' ')}`);
}
const ok = check.status === 200 && total === expected && fiveXx === 0 && transportErrors === 0 && unexpected === 0;
console.log(
  `X-Total-Count ${total} (expected ${seedCount} seeded + ${created} created = ${expected}); 5xx: ${fiveXx}; other unexpected statuses: ${unexpected - fiveXx}; transport errors: ${transportErrors} → ${ok ? 'OK' : 'FAILED'}`,
);
console.log(`total ${((performance.now() - t0) / 1000).toFixed(0)} s; ${load()}`);

await service.close();
process.exit(ok ? 0 : 1);
