// Preloaded into a process under measurement (`node --import <this file>`, benchmarks only): its
// event-loop delay (perf_hooks.monitorEventLoopDelay, sampled every LOOP_DELAY_RESOLUTION_MS,
// default 10) and its CPU time. On SIGUSR2 it appends one JSON line to LOOP_DELAY_FILE (the
// window since the last signal: delay percentiles and max in ms, CPU ms, wall ms, the
// monotonic time in µs at the end) and starts a new window. Without LOOP_DELAY_FILE: nothing.
// Where /proc/self/task/<tid>/schedstat exists (Linux with schedstats), each line also gives
// per thread name (comm) the ms run on a CPU and the ms spent runnable but waiting for one (the
// scheduler's delay): `main` is the event-loop thread, the others grouped by their names.
// It also counts the window's garbage collections as the main thread saw them (PerformanceObserver
// 'gc' entries): per kind (minor: scavenges; major: mark-compacts), how many, their pauses' sum and
// the longest pause in ms.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { gcKindName } from './gc-kinds.js';

const file = process.env['LOOP_DELAY_FILE'];
if (file !== undefined && file !== '') {
  const delay = monitorEventLoopDelay({ resolution: Number(process.env['LOOP_DELAY_RESOLUTION_MS'] ?? 10) });
  delay.enable();
  let cpu = process.cpuUsage();
  let wall = performance.now();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  /** tid -> [name, run ns, wait ns, timeslices] */
  const threads = (): Map<string, [string, number, number, number]> => {
    const out = new Map<string, [string, number, number, number]>();
    try {
      const tids = readdirSync('/proc/self/task').sort((a, b) => Number(a) - Number(b));
      for (const [i, tid] of tids.entries()) {
        try {
          const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
          // Node 20 names every thread "node": those are told apart by their order of birth.
          const name = tid === String(process.pid) ? 'main' : comm === 'node' ? `#${i}` : comm;
          const [run = 0, wait = 0, slices = 0] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8')
            .trim()
            .split(' ')
            .map(Number);
          out.set(tid, [name, run, wait, slices]);
        } catch {
          // The thread ended between the listing and the read.
        }
      }
    } catch {
      // No /proc here.
    }
    return out;
  };
  let lastThreads = threads();
  let gcs: Record<string, { count: number; ms: number; maxMs: number }> = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as unknown as { detail?: { kind?: number } };
      const kind = gcKindName(detail?.kind) ?? 'other';
      const sum = (gcs[kind] ??= { count: 0, ms: 0, maxMs: 0 });
      sum.count += 1;
      sum.ms = Math.round((sum.ms + entry.duration) * 100) / 100;
      sum.maxMs = Math.max(sum.maxMs, Math.round(entry.duration * 100) / 100);
    }
  }).observe({ entryTypes: ['gc'] });
  /** Per thread name: ms run, ms waited for a CPU, timeslices, since the last window. */
  const threadWindow = (): Record<string, { runMs: number; waitMs: number; slices: number }> => {
    const now = threads();
    const byName: Record<string, { runMs: number; waitMs: number; slices: number }> = {};
    for (const [tid, [name, run, wait, slices]] of now) {
      const [, run0 = 0, wait0 = 0, slices0 = 0] = lastThreads.get(tid) ?? [];
      const sum = (byName[name] ??= { runMs: 0, waitMs: 0, slices: 0 });
      sum.runMs = Math.round((sum.runMs + ms(run - run0)) * 100) / 100;
      sum.waitMs = Math.round((sum.waitMs + ms(wait - wait0)) * 100) / 100;
      sum.slices += slices - slices0;
    }
    lastThreads = now;
    return byName;
  };
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
        threads: threadWindow(),
        gc: gcs,
      })}\n`,
    );
    gcs = {};
    delay.reset();
    cpu = process.cpuUsage();
    wall = now;
  });
}
