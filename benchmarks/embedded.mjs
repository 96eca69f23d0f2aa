// Benchmark (not a test): the embedded store against the memory store, in one run.
//
//   npx -y pnpm@10 bench:embedded                 # builds first; a few minutes
//   EMBEDDED_PARTS=http,start BENCH_SECONDS=5 BENCH_ROUNDS=3 node benchmarks/embedded.mjs
//
// http:  the service as a child process (STORE=memory, then STORE=embedded on a fresh
//        DATA_DIR, rounds interleaved), autocannon in this process at 50 connections:
//        POST /v1/tickets, GET one ticket, GET a list page. Prints req/s and p99 per store and
//        the ratio embedded / memory per round (this machine is shared and noisy: the ratio of
//        one round is the figure, its spread says how far to trust it).
// start: a data directory of BENCH_START_TICKETS tickets (default 100k) with 5 messages each,
//        written through the store's ports, then a fresh start timed (open and load), bytes on
//        disk per ticket; then BENCH_START_BIG tickets (default 1M) without messages.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedStore } from '@support/adapter-embedded';
import { aMessage, aTicket } from '@support/application/testing';

const parts = (process.env.EMBEDDED_PARTS ?? 'http,start').split(',');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const startTickets = Number(process.env.BENCH_START_TICKETS ?? 100_000);
const bigTickets = Number(process.env.BENCH_START_BIG ?? 1_000_000);
const mainJs = fileURLToPath(new URL('../packages/server/dist/src/main.js', import.meta.url));
const password = 'bench-admin-password';

const startService = (env) =>
  new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [mainJs], {
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        ADMIN_PASSWORD: password,
        RATE_LIMIT: '1000000000',
        LOG_LEVEL: 'error',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const look = (s) => {
      out += s;
      const m = /"message":"listening".*?"port":(\d+)/.exec(out) ?? /listening on https:\/\/localhost:(\d+)/.exec(out);
      if (m !== null) {
        proc.stdout.off('data', look);
        proc.stderr.off('data', look);
        resolve({ proc, port: Number(m[1]) });
      }
    };
    proc.stdout.setEncoding('utf8').on('data', look);
    proc.stderr.setEncoding('utf8').on('data', look);
    proc.on('exit', (code) => reject(new Error(`the service exited (${code}): ${out}`)));
  });

const stop = (proc) =>
  new Promise((resolve) => {
    proc.removeAllListeners('exit');
    proc.on('exit', resolve);
    proc.kill('SIGTERM');
  });

const json = async (port, method, path, body, token) => {
  const res = await fetch(`https://localhost:${port}${path}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
};

const load = (port, token, request, connections = 50) =>
  new Promise((resolve, reject) => {
    autocannon(
      {
        url: `https://localhost:${port}`,
        connections,
        duration: seconds,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        requests: [request],
        tlsOptions: { rejectUnauthorized: false },
      },
      (err, result) =>
        err
          ? reject(err)
          : resolve({
              rps: result.requests.average,
              p99: result.latency.p99,
              non2xx: result.non2xx,
              errors: result.errors,
            }),
    );
  });

const httpPart = async () => {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  const rows = [];
  for (let round = 1; round <= rounds; round += 1) {
    const row = { round };
    // Which store goes first alternates, so that neither always meets the machine's state the other left.
    for (const store of round % 2 === 1 ? ['memory', 'embedded'] : ['embedded', 'memory']) {
      const dir = mkdtempSync(join(tmpdir(), 'bench-embedded-'));
      const { proc, port } = await startService({ STORE: store, DATA_DIR: dir });
      try {
        const { access_token: token } = await json(port, 'POST', '/v1/oauth/token', {
          grant_type: 'password',
          username: 'admin@example.com',
          password,
        });
        const customer = await json(
          port,
          'POST',
          '/v1/users',
          { name: 'Bench Customer', email: 'bench@example.com', role: 'customer', password: 'bench-password-1' },
          token,
        );
        const body = JSON.stringify({
          subject: 'Printer on fire',
          summary: 'Smoke comes out of the paper tray.',
          customer_id: customer.id,
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
        await stop(proc);
        rmSync(dir, { recursive: true, force: true });
      }
    }
    rows.push(row);
    const line = ['POST', 'GET one', 'GET list']
      .map((k) => {
        const m = row[`memory ${k}`];
        const e = row[`embedded ${k}`];
        return `${k}: memory ${m.rps.toFixed(0)}/s p99 ${m.p99} ms, embedded ${e.rps.toFixed(0)}/s p99 ${e.p99} ms, ratio ${(e.rps / m.rps).toFixed(2)}x${m.non2xx + e.non2xx + m.errors + e.errors > 0 ? ' (NON-2XX OR ERRORS)' : ''}`;
      })
      .join('\n  ');
    console.log(`round ${round}:\n  ${line}`);
  }
  for (const k of ['POST', 'GET one', 'GET list']) {
    const ratios = rows.map((r) => r[`embedded ${k}`].rps / r[`memory ${k}`].rps).sort((a, b) => a - b);
    console.log(
      `${k}: embedded / memory, median of ${rows.length} rounds ${ratios[Math.floor(ratios.length / 2)].toFixed(2)}x (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
  }
};

/** Writes `tickets` tickets (and `messages` each) through the ports, many calls at a time (they share commits). */
const fill = async (dir, tickets, messages) => {
  const store = createEmbeddedStore({ dataDir: dir });
  await store.start();
  const started = performance.now();
  const batch = 5_000;
  for (let first = 1; first <= tickets; first += batch) {
    const writes = [];
    for (let id = first; id < first + batch && id <= tickets; id += 1) {
      writes.push(
        store.tickets.insert(
          aTicket({
            id,
            subject: `Ticket ${id} printer`,
            customerId: 1 + (id % 500),
            priority: ['low', 'normal', 'high', 'urgent'][id % 4],
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
  ]) {
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
      global.gc?.();
      const heap = process.memoryUsage().heapUsed / 2 ** 20;
      // The store's file pages still mapped after the start (it lets go of what the load read).
      const file = Number(/RssFile:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'latin1'))?.[1] ?? NaN) / 1024;
      await store.close();
      console.log(
        `start with ${tickets} tickets and ${tickets * messages} messages: ${s.toFixed(1)} s (goal <= ${goal} s; process CPU ${cpu.toFixed(1)} s, load ${loadavg()[0].toFixed(1)}), ` +
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
