// Preloaded into the service under measurement (`node --expose-gc --import <this file>`,
// benchmarks only): on SIGUSR2 it runs a full garbage collection, then appends one JSON line to
// GC_PROBE_FILE: the process's memory once only what is still reachable is left (rss, heapUsed,
// external, arrayBuffers, in bytes) and how long the collection took. What a process holds, as
// opposed to what it has not collected yet. Without GC_PROBE_FILE, or without --expose-gc: nothing.
import { appendFileSync } from 'node:fs';

const file = process.env['GC_PROBE_FILE'];
const collect = (globalThis as { gc?: () => void }).gc;
if (file !== undefined && file !== '' && collect !== undefined) {
  let seq = 0;
  process.on('SIGUSR2', () => {
    const started = performance.now();
    // Twice: the second also finishes the first's sweeping of dead array buffers (the chunks).
    collect();
    collect();
    const gcMs = performance.now() - started;
    const m = process.memoryUsage();
    seq += 1;
    appendFileSync(
      file,
      `${JSON.stringify({ seq, gcMs, rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers })}\n`,
    );
  });
}
