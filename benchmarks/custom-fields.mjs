// Benchmark (not a test): custom fields (contract §10, issue 36) at scale.
//
//   npx -y pnpm@10 bench:custom-fields                  # builds first; search, start, http
//   CF_PARTS=search CF_N=200000 node --expose-gc benchmarks/custom-fields.mjs
//
// search: a memory store of CF_N tickets (default 1M; the help desk of queue-filters.mjs:
//         70% assigned to one of 48 agents, states open/pending/closed) with 20 defined fields
//         of every type at realistic fill rates (below); every cf.<key> filter alone, with
//         state=open and with assigned_user_id=me (agent 7), and every cf sort, timed one call
//         at a time on the CPU clock (all calls counted, GC included) as queue-filters.mjs does.
// start:  the embedded store: CF_N tickets written with and without the 20 fields, each started
//         in a child process (start time, RSS after the load), then the same searches on the
//         embedded store that started with them.
// http:   GET /v1/tickets/{id} of a ticket with 20 custom fields against one with none
//         (the service as a child process, STORE=memory, autocannon, rounds interleaved).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createEmbeddedStore } from '@support/adapter-embedded';
import { createMemoryStore } from '@support/adapter-memory';
import { aFilter, aTicket, sortOf } from '@support/application/testing';
import { newTicketField } from '@support/domain';
import { timeCalls } from './queue-filters.mjs';
import { seeded } from './seeded.mjs';

const parts = (process.env.CF_PARTS ?? 'search,start,http').split(',');
const N = Number(process.env.CF_N ?? 1_000_000);
const calls = Number(process.env.BENCH_QUEUE_CALLS ?? 200);
const perPage = 30;
const self = fileURLToPath(import.meta.url);
const load = () => `load ${loadavg()[0].toFixed(1)}`;

// ---------------------------------------------------------------------------- the fields

const opts = (...values) => values.map((value) => ({ value, title: value }));
const field = (id, key, type, extra = {}) => {
  const made = newTicketField(id, { key, title: key, type, ...extra }, id, 0);
  if (made._tag === 'Left') throw new Error(JSON.stringify(made.left));
  return made.right;
};
const products = Array.from({ length: 30 }, (_, i) => `product_${i}`);
const skus = Array.from({ length: 2000 }, (_, i) => `SKU${1000 + i}`);
/** 20 fields of every type, with the fill rate and a value maker each (rng in [0, 1)). */
const specs = [
  [
    field(1, 'plan_tier', 'dropdown', { options: opts('free', 'basic', 'pro', 'gold', 'enterprise') }),
    0.9,
    (r, p) => p(['free', 'basic', 'pro', 'gold', 'enterprise']),
  ],
  [
    field(2, 'region', 'dropdown', { options: opts('eu', 'us', 'uk', 'apac', 'latam', 'mea', 'ca', 'au') }),
    0.7,
    (r, p) => p(['eu', 'us', 'uk', 'apac', 'latam', 'mea', 'ca', 'au']),
  ],
  [field(3, 'product', 'dropdown', { options: opts(...products) }), 0.6, (r, p) => p(products)],
  [
    field(4, 'channel', 'dropdown', { options: opts('email', 'web', 'phone', 'chat') }),
    0.95,
    (r, p) => p(['email', 'web', 'phone', 'chat']),
  ],
  [field(5, 'vip', 'checkbox'), 1, (r) => r() < 0.05],
  [field(6, 'escalated', 'checkbox'), 0.4, (r) => r() < 0.3],
  [field(7, 'seats', 'integer'), 0.5, (r) => 1 + Math.floor(r() * 5000)],
  [field(8, 'mrr', 'decimal'), 0.4, (r) => Math.round(r() * 9999999) / 100],
  [field(9, 'nps', 'integer'), 0.2, (r) => Math.floor(r() * 11)],
  [field(10, 'renewal', 'date'), 0.5, (r) => day(r, 2025, 3)],
  [field(11, 'first_response', 'date'), 0.3, (r) => day(r, 2024, 2)],
  [
    field(12, 'order_no', 'regexp', { pattern: '^ORD-[0-9]{6}$' }),
    0.3,
    (r) => `ORD-${String(Math.floor(r() * 1e6)).padStart(6, '0')}`,
  ],
  [field(13, 'reference', 'text'), 0.25, (r) => `ref-${Math.floor(r() * 1e9).toString(36)}`],
  [field(14, 'sku', 'text'), 0.4, (r, p) => p(skus)],
  [
    field(15, 'notes', 'textarea'),
    0.1,
    (r, p) =>
      Array.from({ length: 8 }, () =>
        p(['printer', 'invoice', 'refund', 'login', 'slow', 'crash', 'vpn', 'email']),
      ).join(' '),
  ],
  [
    field(16, 'areas', 'multiselect', {
      options: opts('api', 'ui', 'billing', 'auth', 'mobile', 'reports', 'sso', 'export', 'import', 'search'),
    }),
    0.5,
    (r, p) => [
      ...new Set([
        p(['api', 'ui', 'billing', 'auth', 'mobile']),
        p(['reports', 'sso', 'export', 'import', 'search', 'api']),
      ]),
    ],
  ],
  [
    field(17, 'languages', 'multiselect', { options: opts('en', 'de', 'fr', 'es', 'ja', 'pt') }),
    0.3,
    (r, p) => [p(['en', 'de', 'fr', 'es', 'ja', 'pt'])],
  ],
  [
    field(18, 'browser', 'dropdown', { options: opts('chrome', 'firefox', 'safari', 'edge', 'opera', 'other') }),
    0.3,
    (r, p) => p(['chrome', 'firefox', 'safari', 'edge', 'opera', 'other']),
  ],
  [field(19, 'refund_amount', 'decimal'), 0.05, (r) => Math.round(r() * 50000) / 100],
  [field(20, 'contract_id', 'integer'), 0.15, (r) => 100000 + Math.floor(r() * 1e7)],
];
const defs = specs.map(([d]) => d);
const day = (r, from, years) => {
  const d = new Date(Date.UTC(from, 0, 1) + Math.floor(r() * years * 365) * 86_400_000);
  return d.toISOString().slice(0, 10);
};

/** The i-th ticket of the help desk, with (or without) its custom field values. */
const ticketAt = (id, withFields, rng, int, pick) => {
  const states = ['open', 'pending', 'closed'];
  const state = states[rng() < 0.1 ? 0 : rng() < 0.2 ? 1 : 2];
  const values = {};
  if (withFields) for (const [d, fill, make] of specs) if (rng() < fill) values[d.id] = make(rng, pick);
  return aTicket({
    id,
    subject: `Ticket ${id}`,
    state,
    closedAt: state === 'closed' ? 1_700_000_000_000 + id : null,
    customerId: 1 + int(20_000),
    assignedUserId: rng() < 0.7 ? 2 + int(48) : null,
    priority: ['low', 'normal', 'high', 'urgent'][int(4)],
    createdAt: 1_700_000_000_000 + id * 300,
    updatedAt: 1_700_000_000_000 + id * 300,
    customFields: values,
  });
};

const fillStore = async (store, withFields, n) => {
  const { rng, int, pick } = seeded(0x5eed);
  if (withFields) for (const d of defs) await store.ticketFields.insert(d, 100);
  const batch = [];
  for (let id = 1; id <= n; id += 1) {
    batch.push(store.tickets.insert(ticketAt(id, withFields, rng, int, pick)));
    if (batch.length === 5000) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
};

// ---------------------------------------------------------------------------- the searches

const inValues = (id, values) => ({ kind: 'in', fieldId: id, all: false, values, none: false });
/** One condition per field (a common value; a range for numbers and dates; ALL of two for a multiselect), and two `none`s. */
const conditions = [
  ['cf.plan_tier=gold', inValues(1, ['gold'])],
  ['cf.region=eu,uk', inValues(2, ['eu', 'uk'])],
  ['cf.product=product_7', inValues(3, ['product_7'])],
  ['cf.channel=phone', inValues(4, ['phone'])],
  ['cf.vip=true', inValues(5, [true])],
  ['cf.escalated=true', inValues(6, [true])],
  ['cf.seats.gte=4000', { kind: 'range', fieldId: 7, gte: 4000, lte: null }],
  ['cf.mrr.lte=100', { kind: 'range', fieldId: 8, gte: null, lte: 100 }],
  ['cf.nps=0', inValues(9, [0])],
  ['cf.renewal in March 2026', { kind: 'range', fieldId: 10, gte: '2026-03-01', lte: '2026-03-31' }],
  ['cf.first_response.gte=2025-06-01', { kind: 'range', fieldId: 11, gte: '2025-06-01', lte: null }],
  ['cf.order_no=ORD-012345', inValues(12, ['ORD-012345'])],
  ['cf.reference=ref-abc', inValues(13, ['ref-abc'])],
  ['cf.sku=SKU1500', inValues(14, ['SKU1500'])],
  ['cf.notes=none', { kind: 'in', fieldId: 15, all: false, values: [], none: true }],
  ['cf.areas=api,billing (ALL)', { kind: 'in', fieldId: 16, all: true, values: ['api', 'billing'], none: false }],
  ['cf.languages=ja', { kind: 'in', fieldId: 17, all: true, values: ['ja'], none: false }],
  ['cf.browser=safari,none', { kind: 'in', fieldId: 18, all: false, values: ['safari'], none: true }],
  ['cf.refund_amount.gte=100', { kind: 'range', fieldId: 19, gte: 100, lte: null }],
  ['cf.contract_id=none', { kind: 'in', fieldId: 20, all: false, values: [], none: true }],
];
const sortable = defs.filter((d) => d.type !== 'textarea' && d.type !== 'multiselect');

const searchBench = async (store, label) => {
  const shapes = [];
  for (const [name, c] of conditions) {
    shapes.push([name, { custom: [c] }, '-createdAt']);
    shapes.push([`${name} & state=open`, { custom: [c], states: ['open'] }, '-createdAt']);
    shapes.push([`${name} & assignee=me`, { custom: [c], assignees: { ids: [7], none: false } }, '-createdAt']);
  }
  for (const d of sortable)
    for (const dir of ['', '-']) shapes.push([`sort=${dir}cf.${d.key}`, {}, `${dir}cf:${d.id}`]);
  console.log(
    `\ncustom fields on the ${label} store, ${N.toLocaleString('en')} tickets, 20 fields: ${shapes.length} shapes, ≥${calls} calls each, ms per call (${load()})`,
  );
  const sortFor = (s) =>
    s.includes('cf:')
      ? [
          { field: s.replace('-', ''), direction: s.startsWith('-') ? 'desc' : 'asc' },
          { field: 'id', direction: s.startsWith('-') ? 'desc' : 'asc' },
        ]
      : sortOf(s);
  for (const [, spec, s] of shapes)
    for (let k = 0; k < 20; k++) await store.tickets.search(aFilter(spec), sortFor(s), 0, perPage);
  let worst = { p99: 0, name: '' };
  let over = 0;
  for (const [name, spec, s] of shapes) {
    const filter = aFilter(spec);
    const sort = sortFor(s);
    const run = () => store.tickets.search(filter, sort, 0, perPage);
    const { total } = await run();
    const t = await timeCalls(run, calls, 150);
    if (t.cpu.p99 > worst.p99) worst = { p99: t.cpu.p99, name };
    if (t.cpu.p99 >= 5) over += 1;
    console.log(
      `  ${name.padEnd(52)} ${String(total).padStart(9)}  cpu median ${t.cpu.median.toFixed(2).padStart(6)}  p99 ${t.cpu.p99.toFixed(2).padStart(6)}  wall p99 ${t.wall.p99.toFixed(2).padStart(6)}${t.cpu.p99 >= 5 ? '  OVER 5 ms' : ''}`,
    );
  }
  console.log(
    `  worst CPU p99: ${worst.p99.toFixed(2)} ms (${worst.name}); ${over} of ${shapes.length} shapes at or over 5 ms (${load()})`,
  );
};

// ---------------------------------------------------------------------------- start and RSS

/** In a child: starts the embedded store of `dir`, prints {seconds, rss} (MiB, after a GC); with CF_SEARCH, the searches too. */
const startOne = async (dir) => {
  const store = createEmbeddedStore({ dataDir: dir });
  const t0 = performance.now();
  await store.start();
  const seconds = (performance.now() - t0) / 1000;
  global.gc?.();
  const rss = process.memoryUsage().rss / 2 ** 20;
  console.log(JSON.stringify({ seconds, rss }));
  if (process.env.CF_SEARCH === '1') await searchBench(store, 'embedded');
  await store.close();
};

const child = (dir, search) =>
  new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=8192', self, 'start-one', dir], {
      env: { ...process.env, CF_SEARCH: search ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (s) => {
      out += s;
      process.stdout.write(s.startsWith('{') ? '' : s);
    });
    proc.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.split('\n')[0])) : reject(new Error(`child ${code}`)),
    );
  });

const startPart = async () => {
  const figures = {};
  for (const withFields of [false, true]) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cf-start-'));
    try {
      const store = createEmbeddedStore({ dataDir: dir });
      await store.start();
      const t0 = performance.now();
      await fillStore(store, withFields, N);
      await store.close();
      const wrote = (performance.now() - t0) / 1000;
      const f = await child(dir, withFields && parts.includes('search'));
      figures[withFields ? 'with' : 'without'] = f;
      console.log(
        `embedded start, ${N.toLocaleString('en')} tickets ${withFields ? 'with 20 custom fields' : 'without custom fields'}: ${f.seconds.toFixed(1)} s (goal <= 30 s), RSS ${f.rss.toFixed(0)} MiB after the load; written in ${wrote.toFixed(0)} s (${load()})`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const growth = figures.with.rss / figures.without.rss - 1;
  console.log(`RSS with the fields: ${(100 * growth).toFixed(1)}% over the same tickets without (goal < 30%)`);
};

// ---------------------------------------------------------------------------- GET one

const password = 'bench-admin-password';
const mainJs = fileURLToPath(new URL('../packages/server/dist/src/main.js', import.meta.url));
const startService = () =>
  new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [mainJs], {
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        STORE: 'memory',
        ADMIN_PASSWORD: password,
        RATE_LIMIT: '1000000000',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const look = (s) => {
      out += s;
      const m = /"message":"listening".*?"port":(\d+)/.exec(out) ?? /listening on https:\/\/localhost:(\d+)/.exec(out);
      if (m !== null) resolve({ proc, port: Number(m[1]) });
    };
    proc.stdout.setEncoding('utf8').on('data', look);
    proc.stderr.setEncoding('utf8').on('data', look);
    proc.on('exit', (code) => reject(new Error(`the service exited (${code}): ${out}`)));
  });

const request = async (base, token, method, path, body) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return res.json();
};

const httpPart = async () => {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const services = {};
  for (const side of ['none', 'twenty']) {
    const { proc, port } = await startService();
    const base = `https://localhost:${port}`;
    const token = (
      await request(
        base,
        null,
        'POST',
        '/v1/oauth/token',
        `{"grant_type":"password","username":"admin@example.com","password":"${password}"}`,
      )
    ).access_token;
    const customFields = {};
    if (side === 'twenty') {
      const { rng, pick } = seeded(7);
      for (const [d, , make] of specs) {
        const { id: _id, createdAt: _c, updatedAt: _u, version: _v, customerVisible, customerEditable, ...rest } = d;
        await request(base, token, 'POST', '/v1/ticket_fields', {
          ...rest,
          customer_visible: customerVisible,
          customer_editable: customerEditable,
        });
        customFields[d.key] = make(rng, pick);
      }
    }
    const t = await request(base, token, 'POST', '/v1/tickets', {
      subject: 'Printer on fire',
      customer_id: 1,
      custom_fields: customFields,
    });
    services[side] = { proc, url: `${base}/v1/tickets/${t.id}`, token };
  }
  const rps = { none: [], twenty: [] };
  for (let r = 0; r < rounds; r += 1)
    for (const side of r % 2 === 0 ? ['none', 'twenty'] : ['twenty', 'none']) {
      const s = services[side];
      const result = await autocannon({
        url: s.url,
        connections: 50,
        duration: seconds,
        headers: { authorization: `Bearer ${s.token}` },
      });
      rps[side].push(result.requests.average);
    }
  for (const s of Object.values(services)) s.proc.kill('SIGTERM');
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `\nGET /v1/tickets/{id}: ${median(rps.twenty).toFixed(0)} req/s with 20 custom fields, ${median(rps.none).toFixed(0)} without; ratio ${(median(rps.twenty) / median(rps.none)).toFixed(2)} (goal >= 0.9; rounds ${rps.twenty.map((x, i) => (x / rps.none[i]).toFixed(2)).join(', ')}; ${load()})`,
  );
};

if (process.argv[2] === 'start-one') {
  await startOne(process.argv[3]);
} else {
  if (parts.includes('search')) {
    const store = createMemoryStore();
    const t0 = performance.now();
    await fillStore(store, true, N);
    console.log(
      `memory store filled with ${N.toLocaleString('en')} tickets in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    await searchBench(store, 'memory');
  }
  if (parts.includes('start')) await startPart();
  if (parts.includes('http')) await httpPart();
}
