// Mixed load (not a test): both stores in one run, side by side, the same closed-loop traffic over
// HTTPS against the real service in a child process each (on one core with taskset where it
// exists), measured in alternating rounds: reads
// (one ticket, a search, a list page, a ticket with embed=customer, evenly) and PATCHes of random
// tickets at each write share. Prints requests/s, p99 of all, of reads and of writes, per store
// and share, and the embedded / memory ratios; a share of 0 gives the reads' p99 without writes;
// then each kind of read's p50 and p99 per store and share (embedded minus memory: what a read
// of that kind waits for commits). MIXED_HOT=1 sends every PATCH to one hot ticket instead of
// random ones (writes that depend on each other). MIXED_PROFILE=<dir> starts each service with
// `node --cpu-prof --cpu-prof-dir=<dir>/<store>` (the profile, seeding included, is written at its
// stop; read it with `node benchmarks/dist/profile-top.js <file>`). MIXED_BASELINE=<another clone,
// built> adds its embedded store as a third service, "baseline", in the same rounds: two versions
// compared in one run. It also prints each service's CPU per request by thread (/proc).
//
//   npx -y pnpm@10 bench:mixed                       # builds, then ~2 × 4 × MIXED_SECONDS
//   MIXED_SECONDS=60 MIXED_ROUNDS=4 MIXED_WRITES=0,5,20,50 MIXED_CONNECTIONS=16 MIXED_TICKETS=2000 MIXED_HOT=0 node benchmarks/dist/mixed.js
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { closedLoop, percentile, type Answer } from './support/https-client.js';
import { knob, knobList } from './support/knobs.js';
import { createTickets, createUser } from './support/seed.js';
import { startServiceProcess } from './support/service.js';
import { addThreadTimes, cpuIdleMs, describeThreads, threadTimes } from './support/thread-cpu.js';

const seconds = knob('MIXED_SECONDS', 20, 1);
const shares = knobList('MIXED_WRITES', '0,5,20,50', 0);
const connections = knob('MIXED_CONNECTIONS', 16, 1);
const seedTickets = knob('MIXED_TICKETS', 2000, 1);
const rounds = knob('MIXED_ROUNDS', 4, 1);
const hot = knob('MIXED_HOT', 0, 0) > 0;
const profileDir = process.env['MIXED_PROFILE'];
const words = ['printer', 'invoice', 'refund', 'login', 'export', 'quasar', 'network', 'billing'];
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => {
  const x = xs[Math.floor(random() * xs.length)];
  if (x === undefined) throw new Error('pick from an empty list');
  return x;
};
const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true']);
    return true;
  } catch {
    return false;
  }
})();

const readKinds = ['one', 'search', 'list', 'embed'] as const;
type ReadKind = (typeof readKinds)[number];
interface Latencies {
  readonly read: number[];
  readonly write: number[];
  readonly kinds: Record<ReadKind, number[]>;
}
/** Per store and share: CPU ms per thread of the service, and the idle ms of its core (CPU 1), over its rounds. */
interface CpuUse {
  readonly threads: Map<number, number>;
  idleMs: number;
}
const noLatencies = (): Latencies => ({
  read: [],
  write: [],
  kinds: { one: [], search: [], list: [], embed: [] },
});

/** MIXED_BASELINE=<another clone, built>: its embedded store runs as a third service ("baseline"), to compare two versions in one run. */
const baselineDir = process.env['MIXED_BASELINE'];
type Name = 'memory' | 'embedded' | 'baseline';

/** A started service with its seeded tickets and one run of the mix at a write share. */
const prepare = async (name: Name) => {
  const s = await startServiceProcess({
    prefix: hasTaskset ? ['taskset', '-c', '1'] : [],
    env: { STORE: name === 'memory' ? 'memory' : 'embedded', LOG_LEVEL: 'error' },
    maxSockets: connections,
    nodeArgs: profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}/${name}`],
    ...(name === 'baseline' && baselineDir !== undefined
      ? { main: join(baselineDir, 'packages/server/dist/src/main.js') }
      : {}),
  });
  const { http, token } = s;
  const customer = await createUser(http, token, {
    name: 'Mixed Customer',
    email: 'mixed@example.com',
    role: 'customer',
    password: 'mixed-customer-1',
  });
  const ids = await createTickets(
    http,
    token,
    Array.from({ length: seedTickets }, (_, i) => ({
      subject: `${pick(words)} ${pick(words)} ${i}`,
      summary: `${pick(words)} ${pick(words)}`,
      customer_id: customer,
    })),
    100,
  );
  const get = (path: string) => () => http.send({ path, token });
  const reads: Record<ReadKind, () => Promise<Answer>> = {
    one: () => get(`/v1/tickets/${pick(ids)}`)(),
    search: () => get(`/v1/tickets?q=${pick(words)}&per_page=30`)(),
    list: () => get(`/v1/tickets?per_page=30&page=${1 + Math.floor(random() * 20)}`)(),
    embed: () => get(`/v1/tickets/${pick(ids)}?embed=customer`)(),
  };
  const hotTicket = ids[0];
  const pid = s.started.child.pid;
  const run = async (share: number, lat: Latencies, cpu: CpuUse) => {
    let errors = 0;
    const [threadsBefore, idleBefore] = [threadTimes(pid), cpuIdleMs(1)];
    const { n, elapsedMs } = await closedLoop(connections, (seconds * 1000) / rounds, async () => {
      const write = random() * 100 < share;
      const kind = pick(readKinds);
      const t0 = performance.now();
      const a = write
        ? await http.send({
            method: 'PATCH',
            path: `/v1/tickets/${hot ? hotTicket : pick(ids)}`,
            token,
            body: { priority: pick(['low', 'normal', 'high', 'urgent']) },
          })
        : await reads[kind]();
      if (a.status >= 500) errors += 1;
      const ms = performance.now() - t0;
      lat[write ? 'write' : 'read'].push(ms);
      if (!write) lat.kinds[kind].push(ms);
    });
    addThreadTimes(cpu.threads, threadsBefore, threadTimes(pid));
    cpu.idleMs += cpuIdleMs(1) - idleBefore;
    return { count: n, seconds: elapsedMs / 1000, errors };
  };
  return { run, stop: s.stop, pid };
};

interface Row {
  readonly share: number;
  readonly rps: number;
  readonly p99: number;
  readonly readP99: number;
  readonly writeP99: number;
  readonly errors: number;
  readonly load: number;
  /** The writes' latencies, sorted. */
  readonly writes: readonly number[];
  /** Each kind of read: p50 and p99. */
  readonly kinds: Record<ReadKind, readonly [number, number]>;
  readonly cpu: CpuUse;
  readonly count: number;
  readonly seconds: number;
}

// The services run side by side; each share is measured in alternating rounds (memory, embedded,
// memory, ...; with a baseline each goes first in turn), so that the machine's changing load falls on all alike.
const names: readonly Name[] = baselineDir === undefined ? ['memory', 'embedded'] : ['memory', 'embedded', 'baseline'];
const stores = {} as Record<Name, Awaited<ReturnType<typeof prepare>>>;
for (const name of names) stores[name] = await prepare(name);
const results: Record<Name, Row[]> = { memory: [], embedded: [], baseline: [] };
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const noUse = () => ({ lat: noLatencies(), count: 0, seconds: 0, errors: 0, cpu: { threads: new Map(), idleMs: 0 } });
for (const share of shares) {
  const acc: Record<Name, ReturnType<typeof noUse>> = { memory: noUse(), embedded: noUse(), baseline: noUse() };
  for (let round = 0; round < rounds; round += 1)
    for (const name of names.map((_, i) => names[(i + round) % names.length] ?? 'memory')) {
      const r = await stores[name].run(share, acc[name].lat, acc[name].cpu);
      acc[name].count += r.count;
      acc[name].seconds += r.seconds;
      acc[name].errors += r.errors;
    }
  for (const name of names) {
    const { lat, count, errors, cpu } = acc[name];
    results[name].push({
      share,
      rps: count / acc[name].seconds,
      p99: percentile(sorted([...lat.read, ...lat.write]), 99),
      readP99: percentile(sorted(lat.read), 99),
      writeP99: percentile(sorted(lat.write), 99),
      errors,
      load: loadavg()[0] ?? NaN,
      writes: sorted(lat.write),
      cpu,
      count,
      seconds: acc[name].seconds,
      kinds: Object.fromEntries(
        readKinds.map((k) => {
          const xs = sorted(lat.kinds[k]);
          return [k, [percentile(xs, 50), percentile(xs, 99)]];
        }),
      ) as unknown as Row['kinds'],
    });
  }
}
const pids = Object.fromEntries(names.map((name) => [name, stores[name].pid])) as Record<Name, number | undefined>;
for (const s of Object.values(stores)) await s.stop();

const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-');
console.log(
  `mixed load: ${connections} connections, ${seconds} s per share, ${seedTickets} tickets, writes to ${hot ? 'one hot ticket' : 'random tickets'}, server ${hasTaskset ? 'on one core (taskset -c 1)' : 'on all cores'}, load ${f(loadavg()[0] ?? NaN, 1)} at the end`,
);
console.log(
  '| writes | memory req/s | embedded req/s | ratio | memory p99 | embedded p99 | ratio | reads p99 mem / emb | writes p99 mem / emb | 5xx | load |',
);
console.log('|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
results.memory.forEach((m, i) => {
  const e = results.embedded[i];
  if (e === undefined) return;
  console.log(
    `| ${m.share}% | ${f(m.rps)} | ${f(e.rps)} | ${f(e.rps / m.rps, 2)}x | ${f(m.p99, 1)} ms | ${f(e.p99, 1)} ms | ${f(e.p99 / m.p99, 2)}x | ` +
      `${f(m.readP99, 1)} / ${f(e.readP99, 1)} ms | ${f(m.writeP99, 1)} / ${f(e.writeP99, 1)} ms | ${m.errors + e.errors} | ${f(e.load, 1)} |`,
  );
});
const base = results.embedded.find((r) => r.share === 0);
if (base)
  for (const r of results.embedded.filter((x) => x.share > 0))
    console.log(
      `embedded reads' p99 at ${r.share}% writes / without writes: ${f(r.readP99 / base.readP99, 2)}x (goal <= 1.5x)`,
    );
console.log('\n| writes | read | memory p50 / p99 | embedded p50 / p99 | p99 ratio |');
console.log('|--:|---|--:|--:|--:|');
results.memory.forEach((m, i) => {
  const e = results.embedded[i];
  if (e === undefined) return;
  for (const k of readKinds) {
    const [m50, m99] = m.kinds[k];
    const [e50, e99] = e.kinds[k];
    console.log(
      `| ${m.share}% | ${k} | ${f(m50, 1)} / ${f(m99, 1)} ms | ${f(e50, 1)} / ${f(e99, 1)} ms | ${f(e99 / m99, 2)}x |`,
    );
  }
  const [m50, m99] = [percentile(m.writes, 50), percentile(m.writes, 99)];
  const [e50, e99] = [percentile(e.writes, 50), percentile(e.writes, 99)];
  if (m.writes.length > 0)
    console.log(
      `| ${m.share}% | (PATCH) | ${f(m50, 1)} / ${f(m99, 1)} ms | ${f(e50, 1)} / ${f(e99, 1)} ms | ${f(e99 / m99, 2)}x |`,
    );
});
console.log("\nServer CPU per request by thread, and the server core's idle share during the store's rounds (/proc):");
for (const name of names)
  for (const r of results[name])
    console.log(
      `${r.share}% ${name}: ${describeThreads(pids[name], r.cpu.threads, r.count)}; core idle ${f((100 * r.cpu.idleMs) / (r.seconds * 1000), 1)}%`,
    );
for (const [i, b] of results.baseline.entries()) {
  const [m, e] = [results.memory[i], results.embedded[i]];
  if (m === undefined || e === undefined) continue;
  console.log(
    `${b.share}% baseline (${baselineDir ?? ''}): ${f(b.rps)} req/s, ${f(b.rps / m.rps, 2)}x memory; p99 ${f(b.p99, 1)} ms; PATCH p50 / p99 ${f(percentile(b.writes, 50), 1)} / ${f(percentile(b.writes, 99), 1)} ms; this build / baseline: req/s ${f(e.rps / b.rps, 2)}x, p99 ${f(e.p99 / b.p99, 2)}x`,
  );
}
