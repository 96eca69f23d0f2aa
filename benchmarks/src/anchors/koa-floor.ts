// Benchmark (not a test): how close can a Koa app get to bare node:https at all? The floor under
// the service's ratios in bench:anchors (the design card fixes Koa).
//
//   npx -y pnpm@10 bench:koa-floor        # builds, then ~1 min
//
// Bare node:https and Koa 3 + @koa/router (no middleware) answer the same constant ticket
// (~600 B, the service's headers) or its 304, each server in a fresh process pinned to one
// core, the load generator (autocannon, this process) on the other, 50 keep-alive connections,
// interleaved rounds (BENCH_ROUNDS, 3; BENCH_SECONDS, 4). Prints req/s, the ratio to bare node
// and each server's CPU time per request (steadier than req/s on a shared machine).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCertificate } from '../support/cert.js';
import { knob, load } from '../support/knobs.js';
import { pinLoadGenerator } from '../support/pinning.js';
import { firstLine, startNode, stop } from '../support/processes.js';
import { portOf } from './captured.js';
import type { Endpoint } from './endpoints.js';
import { drive } from './load.js';
import { median } from './table.js';

const rounds = knob('BENCH_ROUNDS', 3, 1);
const seconds = knob('BENCH_SECONDS', 4, 1);
const pin = pinLoadGenerator();
if (pin.warning !== null) console.log(`!!! ${pin.warning}: figures not comparable with pinned runs`);
const work = mkdtempSync(join(tmpdir(), 'bench-floor-'));
process.on('exit', () => {
  rmSync(work, { recursive: true, force: true });
});
const tls = await writeCertificate(work);
const script = fileURLToPath(new URL('floor-server.js', import.meta.url));
const kinds = ['node', 'koa'] as const;
const endpoints: Endpoint[] = [
  { name: 'GET ticket, plain', route: { method: 'GET', path: '/v1/tickets/1001' }, headers: {}, expect: 200 },
  {
    name: 'GET ticket, 304',
    route: { method: 'GET', path: '/v1/tickets/1001' },
    headers: { 'if-none-match': '"_ysmBphbHelN8wFJ8hI-RLAuW_c"' },
    expect: 304,
  },
];

interface PerKind {
  readonly rps: number;
  readonly cpuUs: number;
}
const results = new Map<string, (PerKind & { ratio: number })[]>(); // `${endpoint}|${kind}` -> per round
for (let round = 0; round < rounds; round++) {
  for (const endpoint of endpoints) {
    const order = kinds.map((_, i) => kinds[(i + round) % kinds.length] ?? 'node');
    const perRound = new Map<string, PerKind>();
    for (const kind of order) {
      const child = startNode(pin.prefix, [script, kind, tls.certFile, tls.keyFile]);
      const port = portOf(await firstLine(child, kind));
      const r = await drive({ port, pid: child.child.pid }, endpoint, { connections: 50, warmup: 1, seconds });
      await stop(child);
      if (r.errors > 0 || r.unsteady)
        throw new Error(`${kind} ${endpoint.name}: ${r.errors} errors${r.unsteady ? ', unsteady' : ''}`);
      const measured = { rps: r.rps, cpuUs: (r.serverCpu / r.rps) * 1e6 };
      perRound.set(kind, measured);
      console.log(
        `round ${round + 1}/${rounds} ${endpoint.name}: ${kind} ${Math.round(r.rps)}/s, ${measured.cpuUs.toFixed(0)} µs CPU/request`,
      );
    }
    const node = perRound.get('node');
    for (const kind of kinds) {
      const measured = perRound.get(kind);
      if (measured === undefined || node === undefined) continue;
      const key = `${endpoint.name}|${kind}`;
      results.set(key, [...(results.get(key) ?? []), { ...measured, ratio: measured.rps / node.rps }]);
    }
  }
}
console.log(`\n| endpoint | server | req/s | × node | CPU µs/request |\n|---|---|--:|--:|--:|`);
for (const [key, rs] of results) {
  const [endpoint = '', kind = ''] = key.split('|');
  console.log(
    `| ${endpoint} | ${kind} | ${Math.round(median(rs.map((r) => r.rps)))} | ${median(rs.map((r) => r.ratio)).toFixed(2)} | ${median(rs.map((r) => r.cpuUs)).toFixed(0)} |`,
  );
}
console.log(load());
