// Benchmark (not a test): ticket search on the in-memory store at growing store sizes.
//
//   npx -y pnpm@10 bench                 # builds, then 10k, 100k and 1M tickets
//   BENCH_N=200000 npx -y pnpm@10 bench  # sizes N/100, N/10, N
//   BENCH_SIZES=20000,80000 node --expose-gc benchmarks/dist/memory-search.js
//   BENCH_QUEUES_ONLY=1 npx -y pnpm@10 bench   # only the queue filters (queue-filters.ts), at N
//
// One store grows in place (ids and creation times ascending, ~300 s apart), and the writes a
// help desk makes happen as its clock passes: tickets start open, most go through pending and
// close hours to days later, a few stay open for good, a few are deleted. At each size every
// query below is timed (median of batches) and, at the end, each query's median per size is
// compared with the smallest size, next to a fixed-cost baseline (same work at every size: the
// machine's drift) and a linear-scan reference (work ∝ store: what "grows with store" looks
// like on this machine). Figures are per search call, copies of the page included.
import { performance } from 'node:perf_hooks';
import { aFilter, sortOf } from '@support/application/testing';
import {
  recentlyClosedWindowMs,
  type CompleteSort,
  type TicketFilter,
  type TicketId,
  type UserId,
} from '@support/domain';
import { countReads } from './count-reads.js';
import { medianCallUs, queueBench } from './queue-filters.js';
import { load } from './support/knobs.js';
import { helpDesk } from './memory-search-data.js';

// ---------------------------------------------------------------------------- configuration

const N = Number(process.env.BENCH_N ?? 1_000_000);
const sizes: number[] = (process.env.BENCH_SIZES ?? '')
  .split(',')
  .filter((s) => s.trim() !== '')
  .map(Number);
if (sizes.length === 0) {
  for (const d of [100, 10]) if (Math.floor(N / d) >= 1000) sizes.push(Math.floor(N / d));
  sizes.push(N);
}
if (sizes.some((s) => !Number.isInteger(s) || s < 100) || sizes.some((s, i) => i > 0 && s <= (sizes[i - 1] ?? 0))) {
  console.error(`sizes must be ascending integers of at least 100, got ${sizes.join(', ')}`);
  process.exit(2);
}
const smallest = sizes[0] ?? N;
const largest = sizes[sizes.length - 1] ?? N;
const perPage = 30; // the API's default per_page
/** Time spent timing one query at one size (ms), at least minSamples batches. */
const budgetMs = Number(process.env.BENCH_BUDGET_MS ?? 400);
const minSamples = 5;

// ---------------------------------------------------------------------------- data

const desk = helpDesk(smallest);
const { store, growTo, typicalCustomer, rareWord, scarceWord, rng } = desk;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
/** Median time of one call (µs), within the time budget. */
const timeIt = (run: () => Promise<unknown>) => medianCallUs(run, budgetMs, minSamples);

// ---------------------------------------------------------------------------- queries

// With ~18 Zipf draws per ticket, 'export' is in ~11% of tickets and 'file' in ~10%.
const commonWord = 'export';
const secondWord = 'file';
const fixedWork = Array.from({ length: 2000 }, () => rng());

/**
 * Each query: a name, what it is expected to cost, and the search to run at a size (with the
 * store's clock `now`). `kind` is 'baseline' for the two reference rows.
 */
interface Query {
  readonly name: string;
  readonly kind?: 'baseline' | 'reference' | 'linear';
  /** A call that is not a search (the baselines), for a size. */
  readonly run?: (size: number) => () => Promise<unknown>;
  /** The search's filter, sort and offset at a size, the store's clock and its live tickets. */
  readonly search?: (size: number, now: number, live: number) => [TicketFilter, CompleteSort, number];
}
const ticketId = (n: number) => n as TicketId;
const queries: Query[] = [
  {
    name: 'baseline: fixed work (sort 2,000 numbers)',
    kind: 'baseline',
    run: () => () => Promise.resolve([...fixedWork].sort((a, b) => a - b)),
  },
  {
    name: 'baseline: findById (one Map lookup + copy)',
    kind: 'reference',
    run: (size) => {
      let id = 0;
      return () => store.tickets.findById(ticketId((id = (id * 7919 + 1) % size) + 1));
    },
  },
  {
    name: 'first page, sort -created_at (default)',
    search: () => [aFilter(), sortOf('-createdAt'), 0],
  },
  {
    name: 'middle page (offset live/2), -created_at',
    search: (_size, _now, live) => [aFilter(), sortOf('-createdAt'), Math.floor(live / 2 / perPage) * perPage],
  },
  {
    name: 'state=open, sort -priority',
    search: () => [aFilter({ states: ['open'] }), sortOf('-priority'), 0],
  },
  {
    name: 'state=open,pending, sort -priority,created_at',
    search: () => [aFilter({ states: ['open', 'pending'] }), sortOf('-priority', 'createdAt'), 0],
  },
  {
    name: `customer ${typicalCustomer} (a typical one), -created_at`,
    search: () => [aFilter({ customerId: typicalCustomer as UserId }), sortOf('-createdAt'), 0],
  },
  {
    name: 'customer 1 (a big account, 0.5%), -created_at',
    search: () => [aFilter({ customerId: 1 as UserId }), sortOf('-createdAt'), 0],
  },
  {
    name: `q=${commonWord} (common: ~11%), -created_at`,
    search: () => [aFilter({ words: [commonWord] }), sortOf('-createdAt'), 0],
  },
  {
    name: `q=${rareWord} (rare: 40 tickets), -created_at`,
    search: () => [aFilter({ words: [rareWord] }), sortOf('-createdAt'), 0],
  },
  {
    name: `q=${scarceWord} (1 ticket in 5,000), -created_at`,
    search: () => [aFilter({ words: [scarceWord] }), sortOf('-createdAt'), 0],
  },
  {
    name: 'recently_closed (7 days), -closed_at',
    search: (_size, now) => [
      aFilter({ states: ['closed'], closedSince: now - recentlyClosedWindowMs }),
      sortOf('-closedAt'),
      0,
    ],
  },
  {
    name: `q=${commonWord} ${secondWord} (two common words)`,
    search: () => [aFilter({ words: [commonWord, secondWord] }), sortOf('-createdAt'), 0],
  },
  {
    name: `q=${rareWord} ${commonWord} (rare + common word)`,
    search: () => [aFilter({ words: [rareWord, commonWord] }), sortOf('-createdAt'), 0],
  },
  {
    name: `state=open & q=${commonWord}`,
    search: () => [aFilter({ states: ['open'], words: [commonWord] }), sortOf('-createdAt'), 0],
  },
  {
    name: 'baseline: linear scan (state=closed & closed since 1970)',
    kind: 'linear',
    search: () => [aFilter({ states: ['closed'], closedSince: 0 }), sortOf('-closedAt'), 0],
  },
];

// ---------------------------------------------------------------------------- run

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
const fmt = (us: number) =>
  us >= 10_000
    ? `${(us / 1000).toFixed(0)} ms`
    : us >= 1000
      ? `${(us / 1000).toFixed(1)} ms`
      : us >= 10
        ? `${us.toFixed(0)} µs`
        : `${us.toFixed(1)} µs`;
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lpad = (s: string | number, n: number) => String(s).padStart(n);

console.log(
  `memory-store search benchmark: sizes ${sizes.map((s) => s.toLocaleString('en')).join(', ')}; per_page ${perPage}; node ${process.version}; ${load()}`,
);
if ((globalThis as { gc?: unknown }).gc === undefined) console.log('(run with --expose-gc for exact heap figures)');

interface Measured {
  readonly us: number;
  readonly total: number | null;
  readonly reads: number;
}
const results: Measured[][] = queries.map(() => []); // [query][size]
const heap: number[] = [];
const started = performance.now();
for (const size of sizes) {
  const t0 = performance.now();
  await growTo(size);
  const loadS = (performance.now() - t0) / 1000;
  const now = desk.now();
  const all = await store.tickets.search(aFilter(), sortOf('id'), 0, 0);
  const live = all.total;
  gc();
  gc();
  const used = process.memoryUsage().heapUsed;
  heap.push(used);
  console.log(
    `\n${size.toLocaleString('en')} tickets (${live.toLocaleString('en')} live, ${desk.writes().toLocaleString('en')} writes so far, clock ${new Date(now).toISOString().slice(0, 10)}): loaded in ${loadS.toFixed(1)} s, heapUsed ${mb(used)}`,
  );
  for (const [qi, q] of queries.entries()) {
    if (process.env.BENCH_QUEUES_ONLY === '1') break;
    let total: number | null = null;
    let run: () => Promise<unknown>;
    if (q.search) {
      const [filter, sort, offset] = q.search(size, now, live);
      const first = await store.tickets.search(filter, sort, offset, perPage);
      total = first.total;
      run = () => store.tickets.search(filter, sort, offset, perPage);
    } else if (q.run) run = q.run(size);
    else continue;
    const reads = await countReads(run);
    const us = await timeIt(run);
    results[qi]?.push({ us, total, reads });
    console.log(
      `  ${pad(q.name, 56)} ${lpad(fmt(us), 9)} ${lpad(reads.toLocaleString('en'), 11)} reads${total === null ? '' : `   ${total.toLocaleString('en')} match`}`,
    );
  }
}

await queueBench(store, { now: desk.now(), typicalCustomer, perPage, size: largest });
if (process.env.BENCH_QUEUES_ONLY === '1') process.exit(0);

// The summary. Time: each query's median per size and its ratio to the smallest size, divided
// by the fixed-cost baseline's ratio (a machine that slowed down overall is not read as growth).
// Work: the tickets read per call (see countReads), and the matches. The verdict goes by the
// work: time also grows with the heap (a random ticket read costs more in a 1 GB heap than in
// a 16 MB one: compare findById), which is the machine, not the plan.
const baseline = results[queries.findIndex((q) => q.kind === 'baseline')] ?? [];
const drift = baseline.map((r) => r.us / (baseline[0]?.us ?? NaN));
const storeRatio = largest / smallest;
const exponent = (ratio: number) => (storeRatio > 1 ? Math.log(Math.max(ratio, 1e-9)) / Math.log(storeRatio) : 0);
const short = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(0)}k` : `${n}`);
/**
 * reads ~N^r, matches ~N^m. Flat reads keep the claim; so do reads that follow growing matches
 * (a few reads per match). Reads that outgrow the matches, or that grow like the store while
 * reading many tickets per match (a wider condition's candidates), grow with the store.
 */
const verdict = (q: Query, rs: readonly Measured[]) => {
  const last = rs.length - 1;
  const first = rs[0];
  const end = rs[last];
  if (first === undefined || end === undefined) return 'no figures';
  if (q.kind === 'baseline') return 'the machine: divides the other time ratios';
  const r = exponent(Math.max(1, end.reads) / Math.max(1, first.reads));
  const m = first.total === null || first.total === 0 ? null : exponent((end.total ?? 0) / first.total);
  const step =
    last > 0
      ? `; ×${(end.reads / Math.max(1, rs[last - 1]?.reads ?? 1)).toFixed(1)} reads from ${sizeName(sizes[last - 1] ?? 0)} to ${sizeName(largest)}`
      : '';
  const growth = `reads ~N^${r.toFixed(2)}${m === null ? '' : m < 0.1 ? ', matches fixed' : `, matches ~N^${m.toFixed(2)}`}${step}`;
  if (q.kind === 'reference') return `O(1) reads; its time growth is the heap (${growth})`;
  if (q.kind === 'linear') return `reads every match: what "grows with store" looks like (${growth})`;
  if (r < 0.15) return `proportional to page/matches (${growth})`;
  const perMatch = end.reads / ((end.total ?? 0) + perPage);
  if (m !== null && m >= 0.1 && r <= m + 0.15 && perMatch <= 3) {
    return `proportional to matches, which grow with the store here (${growth})`;
  }
  return `GROWS WITH STORE (${growth}; ${perMatch.toFixed(1)} reads per match)`;
};

const sizeName = (s: number) => (s >= 1e6 ? `${s / 1e6}M` : s >= 1e3 ? `${s / 1e3}k` : `${s}`);
const heading = (cell: (s: string) => string) =>
  `  ${pad('query', 56)}${sizes.map((s) => lpad(cell(sizeName(s)), 17)).join('')}`;
console.log(`\ntime: median per call, ×: ratio to ${sizeName(smallest)} divided by the fixed baseline's ratio`);
console.log(heading((s) => s));
for (const [qi, q] of queries.entries()) {
  const rs = results[qi] ?? [];
  const cell = (r: Measured, si: number) =>
    si === 0
      ? fmt(r.us)
      : `${fmt(r.us)} ×${(r.us / (rs[0]?.us ?? NaN) / (q.kind === 'baseline' ? 1 : (drift[si] ?? NaN))).toFixed(1)}`;
  console.log(`  ${pad(q.name, 56)}${rs.map((r, si) => lpad(cell(r, si), 17)).join('')}`);
}
console.log(`  ${pad('heapUsed', 56)}${heap.map((h) => lpad(mb(h), 17)).join('')}`);
console.log(`\nwork: tickets read per call / matches, and the verdict`);
console.log(`${heading((s) => s)}   verdict`);
for (const [qi, q] of queries.entries()) {
  const rs = results[qi] ?? [];
  const cell = (r: Measured) => (r.total === null ? short(r.reads) : `${short(r.reads)} / ${short(r.total)}`);
  console.log(`  ${pad(q.name, 56)}${rs.map((r) => lpad(cell(r), 17)).join('')}   ${verdict(q, rs)}`);
}
console.log(
  `\nheapUsed ${mb(heap[heap.length - 1] ?? NaN)} at ${largest.toLocaleString('en')} tickets (${((heap[heap.length - 1] ?? NaN) / largest).toFixed(0)} bytes per ticket); total time ${((performance.now() - started) / 1000).toFixed(0)} s; ${load()}`,
);
