// Benchmark (not a test): what the change feed costs writes, and how soon a webhook hears of one.
//
//   npx -y pnpm@10 bench:events                  # builds, then ~40 s
//   BENCH_WRITES=20000 BENCH_ROUNDS=7 BENCH_RATE=200 BENCH_SECONDS=10 node benchmarks/dist/events.js
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
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Journal, MemoryEventLog, memoryStoreSettings, memoryTicketStores } from '@support/adapter-memory';
import type { TicketRepository } from '@support/application';
import { aTicket } from '@support/application/testing';
import { revise, type Ticket } from '@support/domain';
import { expectJson, field, median, percentile } from './support/https-client.js';
import { startInProcess } from './support/in-process.js';
import { knob, load } from './support/knobs.js';
import { createTickets, createUser } from './support/seed.js';
import { sleep } from './support/service.js';

const writes = knob('BENCH_WRITES', 20_000, 1);
const rounds = knob('BENCH_ROUNDS', 7, 1);
const rate = knob('BENCH_RATE', 200, 1);
const seconds = knob('BENCH_SECONDS', 10, 1);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

// ---------------------------------------------------------------------------- 1. append cost

const silentFeed = { record: () => undefined, append: () => undefined };
const ticketOf = (id: number): Ticket =>
  aTicket({
    id,
    subject: `Printer on fire ${id}`,
    summary: 'Smoke comes out of the paper tray and the toner smells of burnt toast.',
    customerId: 1 + (id % 500),
    customerName: `Customer ${1 + (id % 500)}`,
    tags: ['hardware'],
    createdAt: 1_700_000_000_000 + id,
  });

const writeAll = async (repo: TicketRepository) => {
  const started = performance.now();
  for (let id = 1; id <= writes; id++) {
    const t = ticketOf(id);
    await repo.insert(t);
    const t2 = revise(t, t.updatedAt + 1000, { priority: 'high' });
    await repo.update(t2, 1);
    await repo.update(revise(t2, t2.updatedAt + 1000, { state: 'pending' }), 2);
  }
  return performance.now() - started;
};

const settings = memoryStoreSettings({});
const ratios: number[] = [];
const withFeed: number[] = [];
const without: number[] = [];
for (let r = 0; r < rounds; r++) {
  // Alternate which goes first, so a drift of the machine does not favour one side.
  const order = r % 2 === 0 ? (['feed', 'none'] as const) : (['none', 'feed'] as const);
  const times = { feed: 0, none: 0 };
  for (const side of order) {
    gc();
    times[side] = await writeAll(
      memoryTicketStores(new Journal(null), settings, side === 'feed' ? new MemoryEventLog() : silentFeed).tickets,
    );
  }
  withFeed.push(times.feed);
  without.push(times.none);
  ratios.push(times.feed / times.none);
}
const perWrite = (ms: number) => `${((ms * 1000) / (writes * 3)).toFixed(2)} µs`;
console.log(
  `\nAppend cost on the write path (memory store, ${writes} tickets x 3 writes, ${rounds} rounds; ${load()})`,
);
console.log('| writes | per write, no feed | per write, with feed | ratio (median of rounds) | goal |');
console.log('|---|---|---|---|---|');
const ratio = median(ratios);
console.log(
  `| repository insert + 2 updates | ${perWrite(median(without))} | ${perWrite(median(withFeed))} | ${ratio.toFixed(3)}x | <= 1.15x: ${ratio <= 1.15 ? 'met' : 'NOT met'} |`,
);

// ---------------------------------------------------------------------------- 2. webhook latency

gc();
const received: { n: number; arrived: number; seq: number }[] = [];
const sentAt = new Map<number, number>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const arrived = performance.now();
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { seq: number; data?: { summary?: string } };
    const mark = /^bench-(\d+)$/.exec(event.data?.summary ?? '');
    if (mark !== null) received.push({ n: Number(mark[1]), arrived, seq: event.seq });
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const service = await startInProcess({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, logErrors: true });
const { http, token } = service;
const customer = await createUser(http, token, {
  name: 'Bench Customer',
  email: 'bench@example.com',
  password: 'bench-password',
  role: 'customer',
});
const [ticket] = await createTickets(http, token, [{ subject: 'Webhook latency', customer_id: customer }]);
field(
  expectJson(
    await http.send({
      method: 'POST',
      path: '/v1/webhooks',
      token,
      body: { url: receiverUrl, events: ['ticket.updated'] },
    }),
    201,
    'creating the webhook',
  ),
  'id',
  'number',
);
const client = service.client(16, true);
const patch = (summary: string) =>
  client.send({ method: 'PATCH', path: `/v1/tickets/${ticket ?? 0}`, token, body: { summary } });

// A second of the same writes first, not counted: connections, TLS sessions and the JIT warm up.
for (let n = 0; n < rate; n++) {
  await sleep(1000 / rate);
  await patch(`warm-${n}`);
}
const total = rate * seconds;
const statuses = new Map<number, number>();
const started = performance.now();
const inFlight: Promise<void>[] = [];
for (let n = 0; n < total; n++) {
  const due = started + (n * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await sleep(wait);
  sentAt.set(n, performance.now());
  inFlight.push(
    patch(`bench-${n}`).then((a) => {
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    }),
  );
}
await Promise.all(inFlight);
const deadline = performance.now() + 10_000;
while (received.length < total && performance.now() < deadline) await sleep(20);
const latencyOf = (r: { n: number; arrived: number }) => r.arrived - (sentAt.get(r.n) ?? NaN);
const latencies = received.map(latencyOf).sort((a, b) => a - b);
const inOrder = received.every((r, i) => i === 0 || r.seq > (received[i - 1]?.seq ?? 0));
const distinct = new Set(received.map((r) => r.n)).size;
const slow = received.filter((r) => latencyOf(r) > 50).map((r) => r.n);
if (slow.length > 0)
  console.log(
    `deliveries over 50 ms: ${slow.length}, writes #${slow.slice(0, 12).join(', #')}${slow.length > 12 ? ', ...' : ''}`,
  );
const p50 = percentile(latencies, 50);
const p99 = percentile(latencies, 99);
console.log(
  `\nWebhook latency on loopback (write sent -> delivery received; ${rate} writes/s for ${seconds} s; service and receiver in this process; ${load()})`,
);
console.log('| writes | answers | deliveries (distinct) | in seq order | p50 | p99 | max | goal |');
console.log('|---|---|---|---|---|---|---|---|');
console.log(
  `| ${total} | ${[...statuses].map(([s, c]) => `${c}x${s}`).join(' ')} | ${received.length} (${distinct}) | ${inOrder ? 'yes' : 'NO'} | ${p50.toFixed(1)} ms | ${p99.toFixed(1)} ms | ${Math.max(...latencies).toFixed(1)} ms | p99 < 50 ms: ${p99 < 50 ? 'met' : 'NOT met'} |`,
);
client.close();
await service.close();
receiver.closeAllConnections();
receiver.close();
process.exit(received.length === total && distinct === total && inOrder ? 0 : 1);
