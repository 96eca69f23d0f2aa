// Benchmark (not a test): the embedded store against the memory store, in one run.
//
//   npx -y pnpm@10 bench:embedded                 # builds first; a few minutes
//   EMBEDDED_PARTS=http,start BENCH_SECONDS=5 BENCH_ROUNDS=3 node benchmarks/dist/embedded.js
//
// http:  the service as a child process (STORE=memory, then STORE=embedded on a fresh
//        DATA_DIR, rounds interleaved), autocannon in this process at 50 connections:
//        POST /v1/tickets, GET one ticket, GET a list page. Prints req/s and p99 per store and
//        the ratio embedded / memory per round (this machine is shared and noisy: the ratio of
//        one round is the figure, its spread says how far to trust it).
// start: a data directory of BENCH_START_TICKETS tickets (default 100k) with 5 messages each,
//        written through the store's ports, then a fresh start timed (open and load), bytes on
//        disk per ticket; then BENCH_START_BIG tickets (default 1M) without messages.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore } from '@support/adapter-embedded';
import { aMessage, aTicket } from '@support/application/testing';
import type { Priority } from '@support/domain';
import type autocannon from 'autocannon';
import { startAutocannon } from './support/autocannon.js';
import { median } from './support/https-client.js';
import { knob } from './support/knobs.js';
import { createUser } from './support/seed.js';
import { startServiceProcess } from './support/service.js';

const parts = (process.env.EMBEDDED_PARTS ?? 'http,start').split(',');
const seconds = knob('BENCH_SECONDS', 5, 1);
const rounds = knob('BENCH_ROUNDS', 3, 1);
const startTickets = knob('BENCH_START_TICKETS', 100_000, 1);
const bigTickets = knob('BENCH_START_BIG', 1_000_000, 1);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

interface Loaded {
  readonly rps: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

const load = async (port: number, token: string, request: autocannon.Request, connections = 50): Promise<Loaded> => {
  const { finished } = startAutocannon({
    url: `https://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    requests: [request],
  });
  const r = await finished;
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
};

const kinds = ['POST', 'GET one', 'GET list'] as const;
type Row = Record<`${'memory' | 'embedded'} ${(typeof kinds)[number]}`, Loaded>;

const httpPart = async () => {
  const rows: Row[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const row: Partial<Row> = {};
    // Which store goes first alternates, so that neither always meets the machine's state the other left.
    for (const store of round % 2 === 1 ? (['memory', 'embedded'] as const) : (['embedded', 'memory'] as const)) {
      const service = await startServiceProcess({ env: { STORE: store, LOG_LEVEL: 'error' } });
      try {
        const { port, token } = service;
        const customer = await createUser(service.http, token, {
          name: 'Bench Customer',
          email: 'bench@example.com',
          role: 'customer',
          password: 'bench-password-1',
        });
        const body = JSON.stringify({
          subject: 'Printer on fire',
          summary: 'Smoke comes out of the paper tray.',
          customer_id: customer,
        });
        // Warm-up, and tickets to read.
        await load(port, token, { method: 'POST', path: '/v1/tickets', body }, 10);
        row[`${store} POST`] = await load(port, token, { method: 'POST', path: '/v1/tickets', body });
        row[`${store} GET one`] = await load(port, token, { method: 'GET', path: '/v1/tickets/7' });
        row[`${store} GET list`] = await load(port, token, {
          method: 'GET',
          path: '/v1/tickets?per_page=30&sort=-priority',
        });
      } finally {
        await service.stop();
      }
    }
    const whole = row as Row;
    rows.push(whole);
    const line = kinds
      .map((k) => {
        const m = whole[`memory ${k}`];
        const e = whole[`embedded ${k}`];
        return `${k}: memory ${m.rps.toFixed(0)}/s p99 ${m.p99} ms, embedded ${e.rps.toFixed(0)}/s p99 ${e.p99} ms, ratio ${(e.rps / m.rps).toFixed(2)}x${m.non2xx + e.non2xx + m.errors + e.errors > 0 ? ' (NON-2XX OR ERRORS)' : ''}`;
      })
      .join('\n  ');
    console.log(`round ${round} (load ${(loadavg()[0] ?? NaN).toFixed(1)}):\n  ${line}`);
  }
  for (const k of kinds) {
    const ratios = rows.map((r) => r[`embedded ${k}`].rps / r[`memory ${k}`].rps).sort((a, b) => a - b);
    console.log(
      `${k}: embedded / memory, median of ${rows.length} rounds ${median(ratios).toFixed(2)}x (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
  }
};

const priorities: readonly Priority[] = ['low', 'normal', 'high', 'urgent'];

/** Writes `tickets` tickets (and `messages` each) through the ports, many calls at a time (they share commits). */
const fill = async (dir: string, tickets: number, messages: number) => {
  const store = createEmbeddedStore({ dataDir: dir });
  await store.start();
  const started = performance.now();
  const batch = 5_000;
  for (let first = 1; first <= tickets; first += batch) {
    const writes: Promise<unknown>[] = [];
    for (let id = first; id < first + batch && id <= tickets; id += 1) {
      writes.push(
        store.tickets.insert(
          aTicket({
            id,
            subject: `Ticket ${id} printer`,
            customerId: 1 + (id % 500),
            priority: priorities[id % 4] ?? 'normal',
          }),
        ),
      );
      for (let n = 1; n <= messages; n += 1)
        writes.push(store.messages.insert(aMessage({ ticketId: id, number: n, body: `Message ${n} of ticket ${id}` })));
    }
    await Promise.all(writes);
  }
  const wrote = (performance.now() - started) / 1000;
  await store.close();
  return wrote;
};

const startPart = async () => {
  for (const [tickets, messages, goal] of [
    [startTickets, 5, 5],
    [bigTickets, 0, 30],
  ] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-embedded-start-'));
    try {
      const wrote = await fill(dir, tickets, messages);
      const bytes = statSync(join(dir, 'store.lmdb')).size;
      const store = createEmbeddedStore({ dataDir: dir });
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      await store.start();
      const s = (performance.now() - t0) / 1000;
      const c = process.cpuUsage(c0);
      const cpu = (c.user + c.system) / 1e6;
      gc();
      const heap = process.memoryUsage().heapUsed / 2 ** 20;
      // The store's file pages still mapped after the start (it lets go of what the load read).
      const file = Number(/RssFile:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'latin1'))?.[1] ?? NaN) / 1024;
      await store.close();
      console.log(
        `start with ${tickets} tickets and ${tickets * messages} messages: ${s.toFixed(1)} s (goal <= ${goal} s; process CPU ${cpu.toFixed(1)} s, load ${(loadavg()[0] ?? NaN).toFixed(1)}), ` +
          `${(bytes / 2 ** 20).toFixed(0)} MiB on disk, ${(bytes / tickets).toFixed(0)} bytes per ticket${messages > 0 ? ' with its messages' : ''}, ` +
          `JS heap after the load ${heap.toFixed(0)} MiB, the process's resident file pages ${file.toFixed(0)} MiB; written in ${wrote.toFixed(1)} s`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
};

if (parts.includes('http')) await httpPart();
if (parts.includes('start')) await startPart();
