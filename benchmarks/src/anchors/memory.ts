// Benchmark (not a test): the service's memory while it reads many distinct tickets, so the
// response cache (RESPONSE_CACHE_BYTES, default 64 MiB) has far more to keep than its budget.
//
//   npx -y pnpm@10 bench:anchors:memory           # builds, then ~3-4 min
//   BENCH_DISTINCT=20000 RESPONSE_CACHE_BYTES=0 node benchmarks/dist/anchors/memory.js
//
// Starts the service as bench:anchors does (pinned, memory store, seeded over HTTPS), with
// BENCH_DISTINCT tickets (100,000), then reads every one of them (GET /v1/tickets/{id}, gzip:
// both the bytes and their gzip are kept), twice over, on BENCH_CONNECTIONS (50) keep-alive
// connections. It prints the service's RSS after seeding, after the first pass and after the
// second: with a bounded cache the second pass adds nothing. RESPONSE_CACHE_BYTES is passed on
// to the service when set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCertificate } from '../support/cert.js';
import { knob, load } from '../support/knobs.js';
import { pinLoadGenerator } from '../support/pinning.js';
import { rssBytes } from '../support/processes.js';
import { startAutocannon } from '../support/autocannon.js';
import { startService } from './service.js';

const distinct = knob('BENCH_DISTINCT', 100_000, 1);
const connections = knob('BENCH_CONNECTIONS', 50, 1);
const budget = process.env.RESPONSE_CACHE_BYTES;
const pin = pinLoadGenerator();
const work = mkdtempSync(join(tmpdir(), 'bench-memory-'));
process.on('exit', () => {
  rmSync(work, { recursive: true, force: true });
});
const tls = await writeCertificate(work);
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;

console.log(
  `memory: ${distinct.toLocaleString('en-US')} distinct tickets read twice over ${connections} connections; ` +
    `RESPONSE_CACHE_BYTES ${budget ?? 'unset (the default, 64 MiB)'}${pin.pinned ? '' : '; UNPINNED'}; ${load()}`,
);
const t0 = Date.now();
const service = await startService({
  prefix: pin.prefix,
  tls,
  tickets: distinct,
  env: budget === undefined ? {} : { RESPONSE_CACHE_BYTES: budget },
});
const pid = service.started.child.pid;
const rss: [string, number][] = [['after seeding', rssBytes(pid)]];
console.log(`seeded in ${Math.round((Date.now() - t0) / 1000)} s; RSS ${mb(rssBytes(pid))}`);

/** Every seeded ticket once, gzip, in order, spread over the connections. */
const pass = async (name: string) => {
  let next = 0;
  let errors = 0;
  let done = 0;
  const started = Date.now();
  const { run, finished } = startAutocannon({
    url: `https://127.0.0.1:${service.port}`,
    connections,
    amount: service.ticketIds.length,
    timeout: 10,
    headers: { authorization: `Bearer ${service.token}`, 'accept-encoding': 'gzip' },
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => ({
          ...req,
          path: `/v1/tickets/${service.ticketIds[next++ % service.ticketIds.length] ?? 0}`,
        }),
      },
    ],
  });
  run.on('response', (_client: unknown, status: number) => {
    done += 1;
    if (status !== 200) errors += 1;
  });
  run.on('reqError', () => {
    errors += 1;
  });
  await finished;
  const after = rssBytes(pid);
  rss.push([name, after]);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `${name}: ${done.toLocaleString('en-US')} reads in ${seconds.toFixed(1)} s (${Math.round(done / seconds)}/s), ${errors} errors; RSS ${mb(after)}`,
  );
  return errors;
};

const errors = (await pass('first pass')) + (await pass('second pass'));
await service.stop();
console.log(`\nservice RSS: ${rss.map(([name, bytes]) => `${name} ${mb(bytes)}`).join(' → ')}; ${load()}`);
if (errors > 0) {
  console.log(`!!! ${errors} errors: the figures are not trustworthy`);
  process.exit(1);
}
