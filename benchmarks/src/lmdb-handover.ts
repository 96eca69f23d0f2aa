// What one LMDB transaction costs the event loop's thread in lmdb-js (not a test; issue 33,
// docs/benchmarks.md "Mixed load"). The embedded store hands each port call to lmdb-js as a
// child transaction (adapter-embedded/src/lmdb-sink.ts); lmdb-js puts the calls that arrive
// while a commit is under way into the next transaction, so a transaction holds one call or
// several. This runs transactions of K calls each (K = HANDOVER_CALLS, default 1,2,4,8), one
// after another (each awaited, as a PATCH awaits its commit), every call shaped like a PATCH's
// (HANDOVER_PUTS record puts of ~600 bytes and the order record), in a store on this disk, and
// prints CPU per transaction and per call on the main thread and on the others (/proc), in two
// ways of handing a call over:
//   child  - env.childTransaction(callback), the store's way (the callback runs on the main
//            thread while lmdb-js's write thread holds the transaction: a round trip per call);
//   queued - db.ifVersion(orderKey, IF_EXISTS, puts): plain writes queued for the write thread,
//            in a block conditional on the previous call's order record (no callback);
//   worker - a worker thread that owns the writes (lmdb-handover-worker.ts): each call's records
//            posted to it as one message, the calls that arrived together written in one
//            synchronous transaction there, each call's number posted back once it is durable
//            (the event loop would keep only the memory engine; encoding moves to the worker).
// Ratios are against K=1 and child in the same run. HANDOVER_MODES picks and orders the ways
// (default child,queued,worker). The total (main + others) is what a service pinned to one core
// pays per transaction: run it under `taskset -c 1` to see that core's share.
//
//   npx -y pnpm@10 exec tsc -b && HANDOVER_TXNS=1500 node benchmarks/dist/lmdb-handover.js
import { open, type Database, type RootDatabase } from 'lmdb';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { knob, knobList } from './support/knobs.js';
import { threadTimes } from './support/thread-cpu.js';

const transactions = knob('HANDOVER_TXNS', 1500, 10);
const callsPerTxn = knobList('HANDOVER_CALLS', '1,2,4,8', 1);
const putsPerCall = knob('HANDOVER_PUTS', 3, 1);
const baseDir = process.env['HANDOVER_DIR'] ?? tmpdir();
// lmdb-js's marker for "the key exists, whatever its version" (write.js IF_EXISTS).
const ifExists = 3.542694326329068e-103;

/** CPU time (ms) of this process's threads so far: the main one and the rest (support/thread-cpu.ts). */
const threadCpu = (): { main: number; others: number } => {
  const times = threadTimes(process.pid);
  const main = times.get(process.pid) ?? 0;
  let all = 0;
  for (const ms of times.values()) all += ms;
  return { main, others: all - main };
};

const record = (i: number): Record<string, unknown> => ({
  id: i,
  subject: `printer ${String(i)} does not print`.padEnd(300, '.'),
  state: 'open',
  priority: 'normal',
  tags: ['billing', 'printer'],
  updated_at: 1_764_000_000_000 + i,
  version: i,
  summary: 'x'.repeat(200),
});

type Mode = 'child' | 'queued' | 'worker';

const run = async (mode: Mode, k: number): Promise<{ mainUs: number; othersUs: number; wallUs: number }> => {
  const dir = mkdtempSync(join(baseDir, 'lmdb-handover-'));
  const env: RootDatabase = open({ path: join(dir, 'store.lmdb'), overlappingSync: false, maxDbs: 4 });
  const rows: Database = env.openDB({ name: 'rows' });
  const meta: Database = env.openDB({ name: 'meta' });
  let call = 0;
  await meta.put('order:0', true);
  const childCall = (): Promise<unknown> => {
    const n = (call += 1);
    return env.childTransaction(() => {
      for (let p = 0; p < putsPerCall; p += 1) rows.putSync((n * 7 + p) % 5000, record(n));
      meta.putSync('lastCommit', n);
    });
  };
  const queuedCall = (): Promise<unknown> => {
    const n = (call += 1);
    return meta.ifVersion(`order:${String(n - 1)}`, ifExists, () => {
      for (let p = 0; p < putsPerCall; p += 1) void rows.put((n * 7 + p) % 5000, record(n));
      void meta.put(`order:${String(n)}`, true);
      void meta.remove(`order:${String(n - 1)}`);
    });
  };
  let worker: Worker | null = null;
  const waiting = new Map<number, () => void>();
  if (mode === 'worker') {
    await env.close();
    worker = new Worker(new URL('./lmdb-handover-worker.js', import.meta.url), {
      workerData: { path: join(dir, 'store.lmdb') },
    });
    worker.on('message', (ns: number[]) => {
      for (const n of ns) {
        waiting.get(n)?.();
        waiting.delete(n);
      }
    });
  }
  const workerCall = (): Promise<unknown> => {
    const n = (call += 1);
    const puts: [number, unknown][] = [];
    for (let p = 0; p < putsPerCall; p += 1) puts.push([(n * 7 + p) % 5000, record(n)]);
    worker?.postMessage({ n, puts });
    return new Promise<void>((resolve) => waiting.set(n, resolve));
  };
  const one = mode === 'child' ? childCall : mode === 'queued' ? queuedCall : workerCall;
  // Warm-up: the first transactions open the file's pages.
  for (let i = 0; i < 50; i += 1) await Promise.all(Array.from({ length: k }, one));
  const before = threadCpu();
  const started = performance.now();
  for (let t = 0; t < transactions; t += 1) {
    const outcomes = await Promise.all(Array.from({ length: k }, one));
    if (mode === 'queued' && outcomes.some((o) => o !== true)) throw new Error('a queued call was refused');
  }
  const wall = performance.now() - started;
  const after = threadCpu();
  if (worker !== null) {
    const w = worker;
    await new Promise((exited) => {
      w.once('exit', exited);
      w.postMessage('close');
    });
  } else await env.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    mainUs: ((after.main - before.main) * 1000) / transactions,
    othersUs: ((after.others - before.others) * 1000) / transactions,
    wallUs: (wall * 1000) / transactions,
  };
};

console.log(
  `lmdb-js hand-over: ${String(transactions)} transactions per row, ${String(putsPerCall)} record puts + the order record per call, store in ${baseDir}, load ${loadavg()[0]?.toFixed(1) ?? '?'}`,
);
console.log(
  '| way | calls per transaction | main µs / txn | main µs / call | others µs / txn | total µs / txn | ms / txn (wall) | main / call vs 1 call (child) |',
);
console.log('|---|--:|--:|--:|--:|--:|--:|--:|');
let reference = 0;
const modes = (process.env['HANDOVER_MODES'] ?? 'child,queued,worker').split(',');
const isMode = (m: string): m is Mode => m === 'child' || m === 'queued' || m === 'worker';
const unknown = modes.filter((m) => !isMode(m));
if (unknown.length > 0) throw new Error(`HANDOVER_MODES: unknown ${unknown.join(', ')} (child, queued, worker)`);
for (const mode of modes.filter(isMode))
  for (const k of callsPerTxn) {
    const r = await run(mode, k);
    const perCall = r.mainUs / k;
    if (reference === 0) reference = perCall;
    console.log(
      `| ${mode} | ${String(k)} | ${r.mainUs.toFixed(0)} | ${perCall.toFixed(0)} | ${r.othersUs.toFixed(0)} | ${(r.mainUs + r.othersUs).toFixed(0)} | ${(r.wallUs / 1000).toFixed(2)} | ${(perCall / reference).toFixed(2)}x |`,
    );
  }
console.log(`load ${loadavg()[0]?.toFixed(1) ?? '?'} at the end`);
