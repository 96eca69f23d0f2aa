// Benchmark (not a test): the embedded store at a large data set, on V8's default heap.
//
//   npx -y pnpm@10 bench:large        # builds first; ~40 min at the defaults on 2 shared cores
//   BENCH_TICKETS=3000000 BENCH_MESSAGES=1 BENCH_DIR=/work node benchmarks/dist/large-store.js
//
// 1. users: the service (plain node, STORE=embedded) makes its first admin on a fresh DATA_DIR
//    under BENCH_DIR (default: the system's temporary directory; it needs ~1.4 KB a ticket with
//    a message on disk), BENCH_CUSTOMERS customers and 10 agents are created over HTTPS, and it
//    stops;
// 2. fill: a child process writes BENCH_TICKETS tickets with BENCH_MESSAGES messages each
//    through the store's ports (large-store-data.ts). It holds them all in its heap while it
//    writes, so it gets 8 GiB: the writer is not what is measured;
// 3. load: a child process on the default heap starts the store alone and prints the heap the
//    data takes (heapUsed after a GC) and its share of the limit;
// 4. service: the real entry point (as `pnpm start` runs it: plain node, the default heap) on
//    that DATA_DIR: its start (spawn to first answer), RSS, heap in use (a diagnostic report,
//    `--report-on-signal`, which changes nothing else), /readyz, and BENCH_REPEATS timed
//    requests of each kind over HTTPS, one at a time.
// The directory is removed at the end unless BENCH_KEEP=1.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { createEmbeddedStore } from '@support/adapter-embedded';
import { median, timedSend, type HttpsClient } from './support/https-client.js';
import { knob, load } from './support/knobs.js';
import { residentMb, startNode } from './support/processes.js';
import { seeded } from './support/seeded.js';
import { createUser } from './support/seed.js';
import { startServiceProcess } from './support/service.js';
import { fillHelpDesk, type Person } from './large-store-data.js';

const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
const mode = process.argv[2] ?? 'run';

/** A child of this script (`fill` or `load`), awaited; its output goes to ours. */
const child = async (nodeArgs: readonly string[], args: readonly string[]): Promise<void> => {
  const started = startNode([], [...nodeArgs, fileURLToPath(import.meta.url), ...args], { stdout: 'pipe' });
  started.child.stdout?.pipe(process.stdout);
  const { code, signal } = await started.exited;
  if (code !== 0) throw new Error(`${args[0] ?? ''} exited (${String(code ?? signal)}): ${started.stderrTail()}`);
};

const fill = async (dataDir: string, peopleFile: string, tickets: number, messages: number): Promise<void> => {
  const people = JSON.parse(readFileSync(peopleFile, 'utf8')) as { customers: Person[]; agents: Person[] };
  const seconds = await fillHelpDesk(dataDir, people, tickets, messages);
  console.log(
    `fill: ${String(tickets)} tickets with ${String(tickets * messages)} messages in ${seconds.toFixed(0)} s (${(((1 + messages) * tickets) / seconds).toFixed(0)} records/s; ${load()})`,
  );
};

const loadAlone = async (dataDir: string): Promise<void> => {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  gc();
  const before = process.memoryUsage().heapUsed;
  const store = createEmbeddedStore({ dataDir });
  const t0 = performance.now();
  await store.start();
  const seconds = (performance.now() - t0) / 1000;
  gc();
  const used = process.memoryUsage().heapUsed;
  const limit = getHeapStatistics().heap_size_limit;
  const records = store.loaded()?.records ?? {};
  const per = (used - before) / (records.tickets ?? 1);
  console.log(
    `load alone (default heap, limit ${gib(limit)}): ${seconds.toFixed(1)} s; heapUsed after a GC ${gib(used)} (${((100 * used) / limit).toFixed(0)}% of the limit), ` +
      `${per.toFixed(0)} bytes a ticket with its messages; records ${JSON.stringify(records)} (${load()})`,
  );
  await store.close();
};

/** The service's heap in use now, from a diagnostic report it writes on SIGUSR2. */
const reportedHeap = async (pid: number, dir: string): Promise<{ used: number; limit: number }> => {
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 30_000; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const file = readdirSync(dir).find((f) => f.endsWith('.json'));
    if (file === undefined) continue;
    try {
      const heap = (
        JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
          javascriptHeap: { usedMemory: number; memoryLimit: number };
        }
      ).javascriptHeap;
      rmSync(join(dir, file));
      return { used: heap.usedMemory, limit: heap.memoryLimit };
    } catch {
      // Still being written.
    }
  }
  throw new Error('the service wrote no diagnostic report');
};

/** BENCH_REPEATS requests made by `call(i)`, one at a time: median and max ms; every status must be `status`. */
const timed = async (
  http: HttpsClient,
  what: string,
  status: number,
  call: (i: number) => Parameters<typeof timedSend>[1],
): Promise<void> => {
  const ms: number[] = [];
  for (let i = 0; i < knob('BENCH_REPEATS', 20, 1); i += 1) {
    const a = await timedSend(http, call(i));
    if (a.status !== status) throw new Error(`${what}: ${String(a.status)} ${a.error ?? a.text.slice(0, 300)}`);
    ms.push(a.ms);
  }
  ms.sort((a, b) => a - b);
  console.log(
    `  ${what}: median ${median(ms).toFixed(1)} ms, max ${(ms[ms.length - 1] ?? NaN).toFixed(1)} ms (${String(ms.length)} one at a time)`,
  );
};

const run = async (): Promise<void> => {
  const tickets = knob('BENCH_TICKETS', 3_000_000, 1);
  const messages = knob('BENCH_MESSAGES', 1, 0);
  const customerCount = knob('BENCH_CUSTOMERS', 200, 1);
  const work = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'bench-large-'));
  const dataDir = join(work, 'data');
  const reports = join(work, 'reports');
  mkdirSync(reports);
  console.log(`bench:large: ${String(tickets)} tickets, ${String(messages)} messages each, in ${dataDir} (${load()})`);
  try {
    const env = { STORE: 'embedded', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const first = await startServiceProcess({ env });
    const people: { customers: Person[]; agents: Person[] } = { customers: [], agents: [] };
    try {
      for (let i = 1; i <= customerCount + 10; i += 1) {
        const role = i <= customerCount ? 'customer' : 'agent';
        const name = `${role === 'customer' ? 'Customer' : 'Agent'} ${String(i)}`;
        const user = { name, email: `${role}${String(i)}@example.com`, role, password: 'bench-password-1' } as const;
        (role === 'customer' ? people.customers : people.agents).push({
          id: await createUser(first.http, first.token, user),
          name,
        });
      }
    } finally {
      await first.stop();
    }
    const peopleFile = join(work, 'people.json');
    writeFileSync(peopleFile, JSON.stringify(people));
    await child(['--max-old-space-size=8192'], ['fill', dataDir, peopleFile, String(tickets), String(messages)]);
    await child(['--expose-gc'], ['load', dataDir]);

    const service = await startServiceProcess({
      env,
      nodeArgs: ['--report-on-signal', `--report-directory=${reports}`],
      startTimeoutMs: 30 * 60_000,
    });
    try {
      const pid = service.started.child.pid ?? 0;
      const heap = await reportedHeap(pid, reports);
      console.log(
        `service start (plain node, default heap): ${(service.startMs / 1000).toFixed(1)} s; heap in use ${gib(heap.used)} of ${gib(heap.limit)} ` +
          `(${((100 * heap.used) / heap.limit).toFixed(0)}%, garbage included); RSS ${residentMb(pid, 'VmRSS').toFixed(0)} MB ` +
          `(anonymous ${residentMb(pid, 'RssAnon').toFixed(0)} MB, file ${residentMb(pid, 'RssFile').toFixed(0)} MB) (${load()})`,
      );
      const ready = await service.http.send({ path: '/readyz' });
      console.log(`  /readyz: ${String(ready.status)} ${JSON.stringify(JSON.parse(ready.text))}`);
      const { int } = seeded(32);
      const token = service.token;
      const anyTicket = (): number => 1 + int(tickets);
      const customer = people.customers[0]?.id ?? 0;
      await timed(service.http, 'GET one ticket', 200, () => ({ path: `/v1/tickets/${String(anyTicket())}`, token }));
      await timed(service.http, 'GET a list page (30)', 200, () => ({ path: '/v1/tickets?per_page=30', token }));
      await timed(service.http, 'GET a search (q=printer, 30)', 200, () => ({
        path: '/v1/tickets?q=printer&per_page=30',
        token,
      }));
      await timed(service.http, "GET a ticket's messages", 200, () => ({
        path: `/v1/tickets/${String(anyTicket())}/messages`,
        token,
      }));
      await timed(service.http, 'PATCH a ticket', 200, (i) => ({
        method: 'PATCH',
        path: `/v1/tickets/${String(anyTicket())}`,
        token,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { priority: i % 2 === 0 ? 'high' : 'low' },
      }));
      await timed(service.http, 'POST a message', 201, (i) => ({
        method: 'POST',
        path: `/v1/tickets/${String(anyTicket())}/messages`,
        token,
        body: { body: `A new message ${String(i)}: the printer still jams after the update.` },
      }));
      await timed(service.http, 'POST a ticket', 201, (i) => ({
        method: 'POST',
        path: '/v1/tickets',
        token,
        body: { subject: `Printer jams again ${String(i)}`, summary: 'Since the update.', customer_id: customer },
      }));
      const after = await reportedHeap(pid, reports);
      const counted = await service.http.send({ path: '/v1/tickets?per_page=1', token });
      const count = Number(counted.headers['x-total-count']);
      console.log(
        `  after the requests: heap in use ${gib(after.used)}, RSS ${residentMb(pid, 'VmRSS').toFixed(0)} MB; the list says ${String(count)} tickets (${load()})`,
      );
    } finally {
      await service.stop();
    }
  } finally {
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
};

if (mode === 'fill')
  await fill(process.argv[3] ?? '', process.argv[4] ?? '', Number(process.argv[5]), Number(process.argv[6]));
else if (mode === 'load') await loadAlone(process.argv[3] ?? '');
else await run();
