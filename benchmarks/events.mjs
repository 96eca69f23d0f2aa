// Benchmark (not a test): what the change feed costs writes, and how soon a webhook hears of one.
//
//   npx -y pnpm@10 bench:events                  # builds, then ~40 s
//   BENCH_WRITES=20000 BENCH_ROUNDS=7 BENCH_RATE=200 BENCH_SECONDS=10 node benchmarks/events.mjs
//
// 1. Append cost on the write path (memory store). The same writes (a ticket inserted, then
//    updated twice) run against the store's ticket repository as the service builds it, and
//    against the same repository given a feed that records nothing; rounds alternate, each on
//    fresh repositories, and the ratio of each round's times is reported (median): the goal is
//    at most 1.15x. (A request pays far more around the write: decoding, checks, HTTP.)
// 2. Webhook latency end to end on loopback. The real service (memory store, WEBHOOK_ALLOW_PRIVATE)
//    runs in this process, with a receiver on 127.0.0.1; BENCH_RATE ticket PATCHes a second for
//    BENCH_SECONDS go over HTTPS, and the receiver times each delivery from just before its
//    write was sent to its arrival: p50/p99 (goal: p99 under 50 ms at 200 writes/s), and that
//    every write was delivered once, in order. A second of the same writes warms up first.
//
// It imports the compiled packages (run `tsc -b` first; `pnpm bench:events` does).
import { createServer } from 'node:http';
import { Agent, request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { revise } from '@support/domain';
import { configFromEnv, startServer, TYPES } from '@support/server';
// Inside the memory store (named in .dependency-cruiser.cjs): the ticket repository built with a
// feed that records nothing, which no public entry point offers.
import { MemoryEventLog } from '../packages/adapter-memory/dist/src/event-log.js';
import { Journal } from '../packages/adapter-memory/dist/src/journal.js';
import { memoryStoreSettings } from '../packages/adapter-memory/dist/src/options.js';
import { memoryTicketStores } from '../packages/adapter-memory/dist/src/tickets/ticket-repository.js';

const writes = Number(process.env.BENCH_WRITES ?? 20_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const rate = Number(process.env.BENCH_RATE ?? 200);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

// ---------------------------------------------------------------------------- 1. append cost

const silentFeed = { record: () => undefined, append: () => undefined };
const aTicket = (id) => ({
  id,
  subject: `Printer on fire ${id}`,
  summary: 'Smoke comes out of the paper tray and the toner smells of burnt toast.',
  state: 'open',
  priority: 'normal',
  customerId: 1 + (id % 500),
  customerName: `Customer ${1 + (id % 500)}`,
  assignedUserId: null,
  groupId: null,
  tags: ['hardware'],
  createdAt: 1_700_000_000_000 + id,
  updatedAt: 1_700_000_000_000 + id,
  closedAt: null,
  deletedAt: null,
  version: 1,
});

const writeAll = async (repo) => {
  const started = performance.now();
  for (let id = 1; id <= writes; id++) {
    const t = aTicket(id);
    await repo.insert(t);
    const t2 = revise(t, t.updatedAt + 1000, { priority: 'high' });
    await repo.update(t2, 1);
    await repo.update(revise(t2, t2.updatedAt + 1000, { state: 'pending' }), 2);
  }
  return performance.now() - started;
};

const settings = memoryStoreSettings({});
const ratios = [];
const withFeed = [];
const without = [];
for (let r = 0; r < rounds; r++) {
  // Alternate which goes first, so a drift of the machine does not favour one side.
  const order = r % 2 === 0 ? ['feed', 'none'] : ['none', 'feed'];
  const times = {};
  for (const side of order) {
    global.gc?.();
    times[side] = await writeAll(
      memoryTicketStores(new Journal(null), settings, side === 'feed' ? new MemoryEventLog() : silentFeed).tickets,
    );
  }
  withFeed.push(times.feed);
  without.push(times.none);
  ratios.push(times.feed / times.none);
}
const perWrite = (ms) => `${((ms * 1000) / (writes * 3)).toFixed(2)} µs`;
console.log(`\nAppend cost on the write path (memory store, ${writes} tickets x 3 writes, ${rounds} rounds)`);
console.log('| writes | per write, no feed | per write, with feed | ratio (median of rounds) | goal |');
console.log('|---|---|---|---|---|');
const ratio = median(ratios);
console.log(
  `| repository insert + 2 updates | ${perWrite(median(without))} | ${perWrite(median(withFeed))} | ${ratio.toFixed(3)}x | <= 1.15x: ${ratio <= 1.15 ? 'met' : 'NOT met'} |`,
);

// ---------------------------------------------------------------------------- 2. webhook latency

global.gc?.();
const adminPassword = 'bench-admin-password';
const received = [];
const sentAt = new Map();
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const arrived = performance.now();
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const mark = /^bench-(\d+)$/.exec(event.data?.summary ?? '');
    if (mark !== null) received.push({ n: Number(mark[1]), arrived, seq: event.seq });
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

const server = await startServer(
  configFromEnv({ PORT: '0', ADMIN_PASSWORD: adminPassword, WEBHOOK_ALLOW_PRIVATE: 'true', RATE_LIMIT: '100000000' }),
  {
    rebind: (c) => {
      c.rebindSync(TYPES.Logger).toConstantValue({ info: () => undefined, error: (m, f) => console.error(m, f) });
    },
  },
);
const agent = new Agent({ keepAlive: true, maxSockets: 16, ca: server.cert });
const send = (method, path, body, token) =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        agent,
        servername: 'localhost',
        headers: {
          ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
          ...(payload === null ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) }),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            json: chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload ?? undefined);
  });

const token = (
  await send('POST', '/v1/oauth/token', {
    grant_type: 'password',
    username: 'admin@example.com',
    password: adminPassword,
  })
).json.access_token;
const customer = (
  await send(
    'POST',
    '/v1/users',
    { name: 'Bench Customer', email: 'bench@example.com', password: 'bench-password', role: 'customer' },
    token,
  )
).json;
const ticket = (await send('POST', '/v1/tickets', { subject: 'Webhook latency', customer_id: customer.id }, token))
  .json;
const hook = await send('POST', '/v1/webhooks', { url: receiverUrl, events: ['ticket.updated'] }, token);
if (hook.status !== 201) {
  console.error('could not create the webhook:', hook.status, hook.json);
  process.exit(1);
}

// A second of the same writes first, not counted: connections, TLS sessions and the JIT warm up.
for (let n = 0; n < rate; n++) {
  await new Promise((r) => setTimeout(r, 1000 / rate));
  await send('PATCH', `/v1/tickets/${ticket.id}`, { summary: `warm-${n}` }, token);
}
const total = rate * seconds;
const statuses = new Map();
const started = performance.now();
const inFlight = [];
for (let n = 0; n < total; n++) {
  const due = started + (n * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  sentAt.set(n, performance.now());
  inFlight.push(
    send('PATCH', `/v1/tickets/${ticket.id}`, { summary: `bench-${n}` }, token).then((a) =>
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1),
    ),
  );
}
await Promise.all(inFlight);
const deadline = performance.now() + 10_000;
while (received.length < total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
const latencies = received.map((r) => r.arrived - sentAt.get(r.n));
const inOrder = received.every((r, i) => i === 0 || r.seq > received[i - 1].seq);
const distinct = new Set(received.map((r) => r.n)).size;
const p50 = quantile(latencies, 0.5);
const slow = received.filter((r) => r.arrived - sentAt.get(r.n) > 50).map((r) => r.n);
if (slow.length > 0)
  console.log(
    `deliveries over 50 ms: ${slow.length}, writes #${slow.slice(0, 12).join(', #')}${slow.length > 12 ? ', ...' : ''}`,
  );
const p99 = quantile(latencies, 0.99);
console.log(
  `\nWebhook latency on loopback (write sent -> delivery received; ${rate} writes/s for ${seconds} s; service and receiver in this process)`,
);
console.log('| writes | answers | deliveries (distinct) | in seq order | p50 | p99 | max | goal |');
console.log('|---|---|---|---|---|---|---|---|');
console.log(
  `| ${total} | ${[...statuses].map(([s, c]) => `${c}x${s}`).join(' ')} | ${received.length} (${distinct}) | ${inOrder ? 'yes' : 'NO'} | ${p50?.toFixed(1)} ms | ${p99?.toFixed(1)} ms | ${Math.max(...latencies).toFixed(1)} ms | p99 < 50 ms: ${p99 < 50 ? 'met' : 'NOT met'} |`,
);
agent.destroy();
await server.close();
receiver.closeAllConnections();
receiver.close();
process.exit(received.length === total && distinct === total && inOrder ? 0 : 1);
