// Preloaded into a process under measurement (`node --import <this file>`, benchmarks only): its
// event-loop delay (perf_hooks.monitorEventLoopDelay, sampled every LOOP_DELAY_RESOLUTION_MS,
// default 10) and its CPU time. On SIGUSR2 it appends one JSON line to LOOP_DELAY_FILE (the
// window since the last signal: delay percentiles and max in ms, CPU ms, wall ms, the
// monotonic time in µs at the end) and starts a new window. Without LOOP_DELAY_FILE: nothing.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env['LOOP_DELAY_FILE'];
if (file !== undefined && file !== '') {
  const delay = monitorEventLoopDelay({ resolution: Number(process.env['LOOP_DELAY_RESOLUTION_MS'] ?? 10) });
  delay.enable();
  let cpu = process.cpuUsage();
  let wall = performance.now();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  process.on('SIGUSR2', () => {
    const used = process.cpuUsage(cpu);
    const now = performance.now();
    appendFileSync(
      file,
      `${JSON.stringify({
        endUs: Number(process.hrtime.bigint() / 1000n),
        wallMs: Math.round(now - wall),
        cpuMs: Math.round((used.user + used.system) / 1000),
        p50: ms(delay.percentile(50)),
        p90: ms(delay.percentile(90)),
        p99: ms(delay.percentile(99)),
        max: ms(delay.max),
      })}\n`,
    );
    delay.reset();
    cpu = process.cpuUsage();
    wall = now;
  });
}
