// Benchmark (not a test): custom fields (contract §10, issue 36) at scale.
//
//   npx -y pnpm@10 bench:custom-fields                  # builds first; search, start, http
//   CF_PARTS=search CF_N=200000 node --expose-gc benchmarks/dist/custom-fields.js
//   CF_PARTS=start CF_DATA=/var/tmp/cf node ...   # the stores made once in CF_DATA and kept:
//                                                 # two builds started on the same data
//
// search: a memory store of CF_N tickets (default 1M; the help desk of queue-filters.ts:
//         70% assigned to one of 48 agents, states open/pending/closed) with 20 defined fields
//         of every type at realistic fill rates (below); every cf.<key> filter alone, with
//         state=open and with assigned_user_id=me (agent 7), and every cf sort, timed one call
//         at a time on the CPU clock (all calls counted, GC included) as queue-filters.ts does,
//         with the main thread's own CPU beside it (V8's helper threads left out).
// start:  the embedded store: CF_N tickets written with and without the 20 fields, each started
//         in a child process (start time, RSS after the load), then (with search, or with
//         embedded-search alone: no memory store filled) the same searches on the embedded
//         store that started with them.
// http:   GET /v1/tickets/{id} of a ticket with 20 custom fields against one with none
//         (the services as child processes on one core, STORE=memory; autocannon in this
//         process on the other core; rounds interleaved). SERVICE_NODE_ARGS gives the services
//         node flags; {side} in them becomes none or twenty,
//         e.g. SERVICE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/cf-prof/{side}'.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { createEmbeddedStore } from '@support/adapter-embedded';
import { createMemoryStore } from '@support/adapter-memory';
import type { Store } from '@support/application';
import { aFilter, sortOf } from '@support/application/testing';
import type { CompleteSort, CustomValue, TicketFilter, UserId } from '@support/domain';
import { conditions, fillStore, sortable, specs } from './custom-fields-data.js';
import { timeCalls } from './queue-filters.js';
import { startAutocannon } from './support/autocannon.js';
import { expectJson, field as fieldOf, median } from './support/https-client.js';
import { knob, load, serviceNodeArgs } from './support/knobs.js';
import { pinLoadGenerator } from './support/pinning.js';
import { residentMb, startNode } from './support/processes.js';
import { seeded } from './support/seeded.js';
import { startServiceProcess, type Service } from './support/service.js';

const parts = (process.env.CF_PARTS ?? 'search,start,http').split(',');
const N = knob('CF_N', 1_000_000, 1);
const calls = knob('BENCH_QUEUE_CALLS', 200, 1);
const perPage = 30;
const self = fileURLToPath(import.meta.url);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const searchBench = async (store: Pick<Store, 'tickets'>, label: string) => {
  const shapes: [string, Partial<TicketFilter>, string][] = [];
  for (const [name, c] of conditions) {
    shapes.push([name, { custom: [c] }, '-createdAt']);
    shapes.push([`${name} & state=open`, { custom: [c], states: ['open'] }, '-createdAt']);
    shapes.push([
      `${name} & assignee=me`,
      { custom: [c], assignees: { ids: [7 as UserId], none: false } },
      '-createdAt',
    ]);
  }
  for (const d of sortable)
    for (const dir of ['', '-']) shapes.push([`sort=${dir}cf.${d.key}`, {}, `${dir}cf:${d.id}`]);
  console.log(
    `\ncustom fields on the ${label} store, ${N.toLocaleString('en')} tickets, 20 fields: ${shapes.length} shapes, ≥${calls} calls each, ms per call (${load()})`,
  );
  const sortFor = (s: string): CompleteSort =>
    s.includes('cf:')
      ? ([
          { field: s.replace('-', ''), direction: s.startsWith('-') ? 'desc' : 'asc' },
          { field: 'id', direction: s.startsWith('-') ? 'desc' : 'asc' },
        ] as unknown as CompleteSort)
      : sortOf(s);
  for (const [, spec, s] of shapes)
    for (let k = 0; k < 20; k++) await store.tickets.search(aFilter(spec), sortFor(s), 0, perPage);
  let worst = { p99: 0, name: '' };
  let over = 0;
  let overThread = 0;
  let worstThread = { p99: 0, name: '' };
  for (const [name, spec, s] of shapes) {
    const filter = aFilter(spec);
    const sort = sortFor(s);
    const run = () => store.tickets.search(filter, sort, 0, perPage);
    const { total } = await run();
    const t = await timeCalls(run, calls, 150);
    if (t.cpu.p99 > worst.p99) worst = { p99: t.cpu.p99, name };
    if (t.cpu.p99 >= 5) over += 1;
    if (t.thread.p99 > worstThread.p99) worstThread = { p99: t.thread.p99, name };
    if (t.thread.p99 >= 5) overThread += 1;
    const f = (x: number) => x.toFixed(2).padStart(6);
    console.log(
      `  ${name.padEnd(52)} ${String(total).padStart(9)}  cpu median ${f(t.cpu.median)}  p99 ${f(t.cpu.p99)}  main thread p99 ${f(t.thread.p99)}  wall p99 ${f(t.wall.p99)}  max cpu ${f(t.cpu.max)}  calls ${t.n}${t.gcCalls > 0 ? ` (GC in ${t.gcCalls}: ${t.gcKinds})` : ''}${t.cpu.p99 >= 5 ? '  OVER 5 ms' : ''}`,
    );
  }
  console.log(
    `  worst CPU p99: ${worst.p99.toFixed(2)} ms (${worst.name}); ${over} of ${shapes.length} shapes at or over 5 ms (${load()})`,
  );
  console.log(
    `  worst main-thread CPU p99: ${worstThread.p99.toFixed(2)} ms (${worstThread.name}); ${overThread} of ${shapes.length} at or over 5 ms (the process's CPU less V8's helper threads)`,
  );
};

// ---------------------------------------------------------------------------- start and RSS

/** In a child: starts the embedded store of `dir`, prints {seconds, rss} (MiB, after a GC); with CF_SEARCH, the searches too. */
const startOne = async (dir: string) => {
  const store = createEmbeddedStore({ dataDir: dir });
  const t0 = performance.now();
  await store.start();
  const seconds = (performance.now() - t0) / 1000;
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  // V8 gives memory back to the system some time after a collection (array buffers, pages): again 5 s later,
  // and on the way (RSS in MiB at 0.1, 0.5, 1 and 2 s, without a collection) to see when.
  const timeline: number[] = [];
  let waited = 0;
  for (const at of [100, 500, 1000, 2000, 5000]) {
    await new Promise((resolve) => setTimeout(resolve, at - waited));
    waited = at;
    if (at < 5000) timeline.push(Math.round(process.memoryUsage().rss / 2 ** 20));
  }
  gc();
  const settled = process.memoryUsage().rss;
  // Of the settled RSS: the process's own memory (heap, buffers) and LMDB's mapped file pages (page cache the kernel may reclaim).
  const anon = residentMb(process.pid, 'RssAnon');
  const file = residentMb(process.pid, 'RssFile');
  console.log(
    JSON.stringify({
      seconds,
      rss: rss / 2 ** 20,
      heap: heapUsed / 2 ** 20,
      settled: settled / 2 ** 20,
      anon,
      file,
      timeline,
    }),
  );
  if (process.env.CF_SEARCH === '1') await searchBench(store, 'embedded');
  await store.close();
};

/** Starts `dir`'s store in a child process: its start time and RSS; its searches' lines go to this stdout. */
const child = async (dir: string, search: boolean) => {
  const started = startNode([], ['--expose-gc', '--max-old-space-size=8192', self, 'start-one', dir], {
    env: { ...process.env, CF_SEARCH: search ? '1' : '0' },
  });
  // The first line is the figures; the searches' lines (CF_SEARCH) are shown as they come.
  let first: unknown = null;
  if (started.child.stdout !== null)
    createInterface({ input: started.child.stdout }).on('line', (line) => {
      if (first === null) first = JSON.parse(line) as unknown;
      else console.log(line);
    });
  const { code } = await started.exited;
  if (code !== 0) throw new Error(`child ${code ?? '?'}: ${started.stderrTail()}`);
  return {
    seconds: fieldOf(first, 'seconds', 'number'),
    rss: fieldOf(first, 'rss', 'number'),
    heap: fieldOf(first, 'heap', 'number'),
    settled: fieldOf(first, 'settled', 'number'),
    anon: fieldOf(first, 'anon', 'number'),
    file: fieldOf(first, 'file', 'number'),
    timeline: (first as { timeline?: number[] } | null)?.timeline ?? [],
  };
};

const startPart = async () => {
  const figures = new Map<
    boolean,
    { seconds: number; rss: number; heap: number; settled: number; anon: number; file: number; timeline: number[] }
  >();
  const kept = process.env.CF_DATA;
  for (const withFields of [false, true]) {
    const dir =
      kept === undefined
        ? mkdtempSync(join(tmpdir(), 'bench-cf-start-'))
        : join(kept, `${String(N)}-${withFields ? 'with' : 'without'}`);
    // A kept store is complete once its `.filled` mark is there (a run stopped part-way fills it again).
    const filled = `${dir}.filled`;
    try {
      let wrote = NaN;
      if (!existsSync(filled)) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        const store = createEmbeddedStore({ dataDir: dir });
        await store.start();
        const t0 = performance.now();
        await fillStore(store, withFields, N);
        await store.close();
        wrote = (performance.now() - t0) / 1000;
        writeFileSync(filled, '');
      }
      const f = await child(dir, withFields && (parts.includes('search') || parts.includes('embedded-search')));
      figures.set(withFields, f);
      console.log(
        `embedded start, ${N.toLocaleString('en')} tickets ${withFields ? 'with 20 custom fields' : 'without custom fields'}: ${f.seconds.toFixed(1)} s (goal <= 30 s), RSS ${f.rss.toFixed(0)} MiB after the load (heap used ${f.heap.toFixed(0)} MiB; RSS at 0.1/0.5/1/2 s ${f.timeline.join('/')} MiB, 5 s later ${f.settled.toFixed(0)} MiB: anonymous ${f.anon.toFixed(0)}, LMDB's file pages ${f.file.toFixed(0)}); ${Number.isNaN(wrote) ? 'kept store' : `written in ${wrote.toFixed(0)} s`} (${load()})`,
      );
    } finally {
      if (kept === undefined) rmSync(dir, { recursive: true, force: true });
    }
  }
  // Read in the tick of the collection, RSS still holds the pages V8's helper threads are giving back (gone 0.1 s later).
  const soon = (100 * ((figures.get(true)?.timeline[0] ?? NaN) / (figures.get(false)?.timeline[0] ?? NaN) - 1)).toFixed(
    1,
  );
  const growth = (key: 'rss' | 'heap' | 'settled' | 'anon' | 'file') =>
    (100 * ((figures.get(true)?.[key] ?? NaN) / (figures.get(false)?.[key] ?? NaN) - 1)).toFixed(1);
  console.log(
    `RSS with the fields: ${growth('rss')}% over the same tickets without (goal < 30%); 0.1 s later ${soon}%; 5 s later ${growth('settled')}% (anonymous ${growth('anon')}%, file pages ${growth('file')}%); heap used ${growth('heap')}%`,
  );
};

// ---------------------------------------------------------------------------- GET one

const httpPart = async () => {
  const seconds = knob('BENCH_SECONDS', 5, 1);
  const rounds = knob('BENCH_ROUNDS', 3, 1);
  // Last of the parts: from here on this process (autocannon) runs on one core and the services
  // on the other, as in the other HTTP benchmarks (support/pinning.ts), so that what the load
  // generator spends on each answer is not on the service's core. Figures before 2026-11-28's
  // night-3 session were taken unpinned (docs/benchmarks.md, Custom fields).
  const pin = pinLoadGenerator();
  if (pin.warning !== null) console.log(`WARNING: ${pin.warning}; the ratio is not comparable with pinned runs`);
  const services = new Map<'none' | 'twenty', { service: Service; path: string }>();
  for (const side of ['none', 'twenty'] as const) {
    const service = await startServiceProcess({
      prefix: pin.prefix,
      env: { STORE: 'memory', LOG_LEVEL: 'error' },
      nodeArgs: serviceNodeArgs().map((a) => a.replaceAll('{side}', side)),
    });
    const { http, token } = service;
    const customFields: Record<string, CustomValue> = {};
    if (side === 'twenty') {
      const { rng, pick } = seeded(7);
      for (const [d, , make] of specs) {
        const { id: _id, createdAt: _c, updatedAt: _u, version: _v, customerVisible, customerEditable, ...rest } = d;
        expectJson(
          await http.send({
            method: 'POST',
            path: '/v1/ticket_fields',
            token,
            body: { ...rest, customer_visible: customerVisible, customer_editable: customerEditable },
          }),
          201,
          `defining ${d.key}`,
        );
        customFields[d.key] = make(rng, pick);
      }
    }
    const id = fieldOf(
      expectJson(
        await http.send({
          method: 'POST',
          path: '/v1/tickets',
          token,
          body: { subject: 'Printer on fire', customer_id: 1, custom_fields: customFields },
        }),
        201,
        'the ticket',
      ),
      'id',
      'number',
    );
    services.set(side, { service, path: `/v1/tickets/${id}` });
  }
  const rps = { none: [] as number[], twenty: [] as number[] };
  for (let r = 0; r < rounds; r += 1)
    for (const side of r % 2 === 0 ? (['none', 'twenty'] as const) : (['twenty', 'none'] as const)) {
      const s = services.get(side);
      if (s === undefined) continue;
      const { finished } = startAutocannon({
        url: `https://127.0.0.1:${s.service.port}${s.path}`,
        connections: 50,
        duration: seconds,
        headers: { authorization: `Bearer ${s.service.token}` },
      });
      rps[side].push((await finished).requests.average);
    }
  for (const { service } of services.values()) await service.stop();
  console.log(
    `\nGET /v1/tickets/{id}: ${median(rps.twenty).toFixed(0)} req/s with 20 custom fields, ${median(rps.none).toFixed(0)} without; ratio ${(median(rps.twenty) / median(rps.none)).toFixed(2)} (goal >= 0.9; rounds ${rps.twenty.map((x, i) => (x / (rps.none[i] ?? NaN)).toFixed(2)).join(', ')}; ${pin.pinned ? `service on CPU ${String(pin.serverCpu)}, autocannon on ${String(pin.loadCpu)}` : 'UNPINNED'}; ${load()})`,
  );
};

if (process.argv[2] === 'start-one') {
  await startOne(process.argv[3] ?? '');
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
