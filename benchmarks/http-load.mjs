// Benchmark (not a test): the real service over HTTPS, under concurrent load.
//
//   npx -y pnpm@10 bench:http                       # builds, then ~100 s in all
//   BENCH_TICKETS=50000 BENCH_SECONDS=3 node benchmarks/http-load.mjs
//
// It starts the composition root in this process (memory store, the real argon2id hasher with
// its bounded concurrency, an ephemeral HTTPS port), seeds BENCH_TICKETS tickets through the
// application's use cases (the same code the POST route calls, without the HTTP round trips),
// then drives it with Node's https client over keep-alive connections (one Agent per run,
// `maxSockets` = concurrency, the server's certificate pinned). Each endpoint runs for
// BENCH_SECONDS at concurrency 1, 8 and 32 (closed loop: each worker sends its next request
// when the previous answer has been read). Client and server share the process and the
// machine, which is shared and noisy, so each endpoint's throughput is also given as a ratio to
// GET /healthz (no auth, no store) measured at the same concurrency in the same run.
//
// Then a login flood: 32 workers POST /v1/oauth/token (argon2id verify) while 4 workers GET
// /v1/tickets/{id}; the GET latencies are compared with the same 4 workers without the flood.
// Finally it checks the store: X-Total-Count of GET /v1/tickets = seeded + created by POST, and
// no 5xx (nor any status other than the one expected) anywhere (exit code 1 otherwise).
//
// It imports the compiled packages (run `tsc -b` first; `pnpm bench:http` does).
import { Agent, request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { configFromEnv, startServer, TYPES } from '@support/server';
// Inside the HTTP adapter (named in .dependency-cruiser.cjs): the seed goes through the use cases
// with bodies decoded as the edge decodes them, which no public entry point offers.
import { TicketCreateBody, UserCreateBody } from '../packages/adapter-http-koa/dist/src/decode/bodies.js';
import { decodeBody } from '../packages/adapter-http-koa/dist/src/decode/object-codec.js';
import { seeded } from './seeded.mjs';

// ---------------------------------------------------------------------------- configuration

const seedCount = Number(process.env.BENCH_TICKETS ?? 20_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrencies = (process.env.BENCH_CONCURRENCY ?? '1,8,32').split(',').map(Number);
const floodWorkers = 32;
const floodReaders = 4;
if (
  !Number.isInteger(seedCount) ||
  seedCount < 100 ||
  !(seconds > 0) ||
  concurrencies.some((c) => !Number.isInteger(c) || c < 1)
) {
  console.error('BENCH_TICKETS must be an integer >= 100, BENCH_SECONDS > 0, BENCH_CONCURRENCY positive integers');
  process.exit(2);
}
const adminEmail = 'admin@example.com';
const adminPassword = 'bench-admin-password';

// ---------------------------------------------------------------------------- data

const { int, pick, zipfOver } = seeded(0x2545f491);

const vocabulary = `printer error login password email account cannot access invoice payment refund order
  shipping delivery broken slow crash update install screen network connection wifi vpn server
  timeout report export import file upload download sync calendar meeting phone mobile app browser
  page loading blank button missing data lost backup restore license key subscription renewal`
  .split(/\s+/)
  .filter((w) => w !== '');
/** Zipf (s = 1): the first words are common (`printer` is in ~1 subject in 4). */
const zipf = zipfOver(vocabulary);
const commonWord = vocabulary[0];
const words = (min, max) => Array.from({ length: min + int(max - min + 1) }, zipf);
const capital = (w) => w[0].toUpperCase() + w.slice(1);
const priorities = ['low', 'normal', 'normal', 'normal', 'high', 'urgent'];
let customers = [];
const ticketBody = () => ({
  subject: capital(words(3, 6).join(' ')),
  summary: `${capital(words(8, 20).join(' '))}.`,
  priority: pick(priorities),
  customer_id: pick(customers),
});

// ---------------------------------------------------------------------------- client

const host = '127.0.0.1';
let server;

/** One request; resolves with status, headers and (when asked) the body, never rejects on HTTP status. */
const send = (agent, method, path, { body, token, keepBody = false } = {}) =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const headers = {};
    if (payload !== null) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(payload.length);
    }
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
    const req = request(
      { host, port: server.port, method, path, headers, agent, ca: server.cert, servername: 'localhost' },
      (res) => {
        const chunks = [];
        res.on('data', (c) => {
          if (keepBody) chunks.push(c);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== null) req.write(payload);
    req.end();
  });

/** Status counts per endpoint, over the whole run. */
const statuses = new Map();
const tally = (name, status) => {
  const s = statuses.get(name) ?? new Map();
  s.set(status, (s.get(status) ?? 0) + 1);
  statuses.set(name, s);
};
let created = 0;
let transportErrors = 0;
/** Answers whose status is not the scenario's expected one (200, or 201 for POST /v1/tickets). */
let unexpected = 0;

const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * `workers` closed-loop workers send `next()` requests for `ms` over their own keep-alive Agent.
 * Answers rps and latency percentiles (ms).
 */
const drive = async (scenario, workers, ms) => {
  const agent = new Agent({ keepAlive: true, maxSockets: workers, ca: server.cert });
  const latencies = [];
  const started = performance.now();
  const deadline = started + ms;
  const worker = async () => {
    while (performance.now() < deadline) {
      const { method, path, body, token } = scenario.next();
      const t0 = performance.now();
      try {
        const a = await send(agent, method, path, { body, token });
        latencies.push(performance.now() - t0);
        tally(scenario.name, a.status);
        if (a.status !== (scenario.expect ?? 200)) unexpected += 1;
        if (scenario.name === 'POST /v1/tickets' && a.status === 201) created += 1;
      } catch {
        transportErrors += 1;
        tally(scenario.name, 'transport error');
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  const elapsed = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    n: latencies.length,
    rps: (latencies.length / elapsed) * 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
};

// ---------------------------------------------------------------------------- run

const silent = { info: () => undefined, error: () => undefined };
const t0 = performance.now();
server = await startServer(
  configFromEnv({ PORT: '0', ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: adminPassword, RATE_LIMIT: '100000000' }),
  {
    rebind: (c) => {
      c.rebindSync(TYPES.Logger).toConstantValue(silent);
    },
    shutdownGraceMs: 1_000,
  },
);
const setupAgent = new Agent({ keepAlive: true, maxSockets: 1, ca: server.cert });
const login = async (username, password) => {
  const a = await send(setupAgent, 'POST', '/v1/oauth/token', {
    body: { grant_type: 'password', username, password },
    keepBody: true,
  });
  if (a.status !== 200) throw new Error(`login failed: ${a.status} ${a.text}`);
  return JSON.parse(a.text).access_token;
};
const token = await login(adminEmail, adminPassword);
const authenticated = await server.app.auth.authenticate(token);
if (authenticated._tag !== 'Right') throw new Error('the admin token does not authenticate');
const admin = authenticated.right;
const must = (either, what) => {
  if (either._tag !== 'Right') throw new Error(`${what} failed: ${JSON.stringify(either.left)}`);
  return either.right;
};

// Customers through the use case (real argon2id hashes: a handful), tickets through the use case;
// the use cases take bodies decoded as the HTTP edge decodes them.
for (let i = 1; i <= 10; i++) {
  const user = must(
    await server.app.users.create(
      admin,
      decodeBody(UserCreateBody, {
        name: `Customer ${i}`,
        email: `customer${i}@example.com`,
        role: 'customer',
        password: `customer-password-${i}`,
      }),
    ),
    'creating a customer',
  );
  customers.push(user.id);
}
const ticketIds = [];
const seedStart = performance.now();
for (let i = 0; i < seedCount; i += 100) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(100, seedCount - i) }, () =>
      server.app.tickets.create(admin, decodeBody(TicketCreateBody, ticketBody())),
    ),
  );
  for (const r of batch) ticketIds.push(must(r, 'seeding a ticket').ticket.id);
}
const seedMs = performance.now() - seedStart;
console.log(
  `http-load: ${seedCount} tickets seeded through the application in ${(seedMs / 1000).toFixed(1)} s ` +
    `(${Math.round((seedCount / seedMs) * 1000)}/s); ${seconds} s per run, concurrency ${concurrencies.join(', ')}; ` +
    `Node ${process.version}, HTTPS on ${server.url}`,
);

const scenarios = [
  { name: 'GET /healthz', next: () => ({ method: 'GET', path: '/healthz' }) },
  { name: 'GET /v1/tickets', next: () => ({ method: 'GET', path: '/v1/tickets', token }) },
  {
    name: `GET /v1/tickets?q=${commonWord}&sort=-priority`,
    next: () => ({ method: 'GET', path: `/v1/tickets?q=${commonWord}&sort=-priority`, token }),
  },
  { name: 'GET /v1/tickets/{id}', next: () => ({ method: 'GET', path: `/v1/tickets/${pick(ticketIds)}`, token }) },
  {
    name: 'POST /v1/tickets',
    expect: 201,
    next: () => ({ method: 'POST', path: '/v1/tickets', body: ticketBody(), token }),
  },
];

// Warm-up (JIT, TLS session setup paths), not counted in the tables; its POSTs are counted in `created`.
for (const s of scenarios) await drive(s, 8, 400);

const results = new Map(); // concurrency -> name -> result
for (const c of concurrencies) {
  const row = new Map();
  for (const s of scenarios) row.set(s.name, await drive(s, c, seconds * 1000));
  results.set(c, row);
}

const fmt = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const width = Math.max(...scenarios.map((s) => s.name.length)) + 2;
console.log('');
console.log(
  `${pad('endpoint', width)}${lpad('conc', 5)}${lpad('req/s', 9)}${lpad('p50 ms', 9)}${lpad('p99 ms', 9)}${lpad('× healthz', 11)}`,
);
for (const s of scenarios) {
  for (const c of concurrencies) {
    const r = results.get(c).get(s.name);
    const base = results.get(c).get('GET /healthz');
    console.log(
      `${pad(s.name, width)}${lpad(c, 5)}${lpad(Math.round(r.rps), 9)}${lpad(fmt(r.p50), 9)}${lpad(fmt(r.p99), 9)}${lpad(fmt(r.rps / base.rps), 11)}`,
    );
  }
}

// ---------------------------------------------------------------------------- login flood

const byId = scenarios[3];
const loginScenario = {
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

const check = await send(setupAgent, 'GET', '/v1/tickets?per_page=1', { token });
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
console.log(`total ${((performance.now() - t0) / 1000).toFixed(0)} s`);

setupAgent.destroy();
await server.close();
process.exit(ok ? 0 : 1);
