// The windows support/loop-delay.ts writes (one JSON line per SIGUSR2 the benchmark sends the
// service), read back and summed: the service's CPU share, its event-loop delay, every thread's
// CPU run and wait (schedstat), and the garbage collections the event loop saw.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One window of the service, as loop-delay.ts wrote it. */
export interface ServiceWindow {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly threads?: Record<string, { runMs: number; waitMs: number; slices: number }>;
  readonly gc?: Record<string, { count: number; ms: number; maxMs: number }>;
}

/** The node flags that preload loop-delay.ts (its LOOP_DELAY_FILE set in the service's environment). */
export const loopDelayImport = (): string[] => ['--import', fileURLToPath(new URL('./loop-delay.js', import.meta.url))];

export const readWindows = (file: string): ServiceWindow[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ServiceWindow);

/** Lines summing `of` (windows of one kind, e.g. the bursts), headed `name`. */
export const windowLines = (name: string, of: readonly ServiceWindow[]): string[] => {
  const cpu = of.reduce((a, d) => a + d.cpuMs, 0);
  const wall = of.reduce((a, d) => a + d.wallMs, 0);
  // Per thread name over these windows: CPU run and runnable-but-waiting ms (schedstat).
  const threads = new Map<string, { runMs: number; waitMs: number; slices: number }>();
  for (const d of of)
    for (const [t, v] of Object.entries(d.threads ?? {})) {
      const sum = threads.get(t) ?? { runMs: 0, waitMs: 0, slices: 0 };
      threads.set(t, { runMs: sum.runMs + v.runMs, waitMs: sum.waitMs + v.waitMs, slices: sum.slices + v.slices });
    }
  const line = [...threads]
    .filter(([, v]) => v.runMs + v.waitMs >= 1)
    .sort((a, b) => b[1].runMs - a[1].runMs)
    .map(([t, v]) => `${t} ${v.runMs.toFixed(0)}/${v.waitMs.toFixed(0)} (${v.slices})`)
    .join(', ');
  // Garbage collections per window, as the event loop saw them: count, pause sum, longest.
  const gcLine = (kind: string) =>
    `${kind} ${of.map((d) => `${d.gc?.[kind]?.count ?? 0}/${(d.gc?.[kind]?.ms ?? 0).toFixed(0)}/${(d.gc?.[kind]?.maxMs ?? 0).toFixed(1)}`).join(' ')}`;
  return [
    `${name}: service CPU ${((100 * cpu) / wall).toFixed(0)}% of the wall time; loop delay p99 ${of.map((d) => d.p99.toFixed(1)).join('/')} ms, max ${of.map((d) => d.max.toFixed(1)).join('/')} ms`,
    `  threads, ms run/ms waiting for the CPU (timeslices) over ${wall} ms: ${line || 'no schedstat'}`,
    `  GC per window, count/ms paused/longest ms: ${gcLine('minor')}; ${gcLine('major')}`,
  ];
};
