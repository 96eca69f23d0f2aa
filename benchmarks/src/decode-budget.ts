// Benchmark (not a test): the decoding cost budget of contract §11 (issue 31). For every
// operation that takes a JSON body, the worst bodies we know of within the 1 MiB limit (long
// lists in each field, lists of empty objects or arrays, long strings, deep nesting, many
// unknown keys; packages/adapter-http-koa/test/support/worst-bodies.ts, exported as
// @support/adapter-http-koa/worst-bodies), each decoded as the service decodes it (UTF-8,
// nesting check, JSON.parse, repeated-key scan, codec, the 400/422 answer rendered). Prints,
// per operation, the worst body and its median time over BENCH_ROUNDS rounds (default 5): the
// process's CPU time (what the event loop is held for on an idle machine; on a busy one the
// wall clock stretches with the load, printed beside it). Target: every operation < 50 ms.
// The budget test (decode-budget.test.ts) holds a generous bound on the same bodies in CI.
//
//   npx -y pnpm@10 bench:decode
//   BENCH_ROUNDS=9 node --expose-gc benchmarks/dist/decode-budget.js
//
// Say the machine's load beside every figure (`uptime`): on 2 shared cores the times stretch with it.
import { bodyOperations, decodeCost, worstBodies } from '@support/adapter-http-koa/worst-bodies';
import { median } from './support/https-client.js';
import { knob, load } from './support/knobs.js';

const rounds = knob('BENCH_ROUNDS', 5, 1);
const targetMs = 50;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

console.log(`decode budget: ${rounds} rounds per body, median; ${load()}`);
// Every body of the first operation once, uncounted: the code is compiled before the table starts.
const first = bodyOperations[0];
if (first !== undefined) for (const body of worstBodies(first)) decodeCost(first, Buffer.from(body.text));
let worstOverall = 0;
const rows: { name: string; count: number; shape: string; status: number; ms: number; wall: number }[] = [];
for (const operation of bodyOperations) {
  let worst = { ms: -1, wall: 0, shape: '', status: 0 };
  let count = 0;
  for (const body of worstBodies(operation)) {
    const bytes = Buffer.from(body.text);
    if (bytes.length > 1024 * 1024) throw new Error(`${body.shape} is over 1 MiB`);
    const cpu: number[] = [];
    const wall: number[] = [];
    let status = 0;
    // A collection first, and one decode not counted, so that no round pays for the body before it.
    gc();
    decodeCost(operation, bytes);
    for (let r = 0; r < rounds; r++) {
      const cost = decodeCost(operation, bytes);
      cpu.push(cost.cpuMs);
      wall.push(cost.ms);
      status = cost.status;
    }
    count += 1;
    const ms = median(cpu);
    if (ms > worst.ms) worst = { ms, wall: median(wall), shape: body.shape, status };
  }
  worstOverall = Math.max(worstOverall, worst.ms);
  rows.push({ name: operation.name, count, ...worst });
}
const width = Math.max(...rows.map((r) => r.name.length));
const shapeWidth = Math.max(...rows.map((r) => r.shape.length));
for (const { name, count, shape, status, ms, wall } of rows)
  console.log(
    `${name.padEnd(width)}  ${String(count).padStart(3)} bodies  worst: ${shape.padEnd(shapeWidth)}  ${status}  ${ms.toFixed(1).padStart(6)} ms CPU (${wall.toFixed(1)} ms wall)${ms < targetMs ? '' : '  OVER'}`,
  );
console.log(`worst of all: ${worstOverall.toFixed(1)} ms of CPU (target < ${targetMs} ms); ${load()}`);
