// CPU time per thread of a process and idle time per CPU, from /proc (Linux only; empty elsewhere):
// where a service's CPU goes besides its main thread (lmdb-js's write threads are libuv pool
// threads), and whether the core it is pinned to was ever idle.
import { readdirSync, readFileSync } from 'node:fs';

/** The kernel's clock ticks per second (USER_HZ), 100 on every Linux this runs on. */
const ticksPerSecond = 100;

/** Thread id -> CPU ms (user + system) so far. */
export type ThreadTimes = ReadonlyMap<number, number>;

export const threadTimes = (pid: number | undefined): ThreadTimes => {
  const times = new Map<number, number>();
  if (pid === undefined) return times;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        // Fields after the command (which may hold spaces): state is the 3rd, utime the 14th, stime the 15th.
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);
        times.set(Number(tid), (ticks * 1000) / ticksPerSecond);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  } catch {
    // No /proc here.
  }
  return times;
};

/** Adds `after - before` per thread into `into` (threads born in between count from 0). */
export const addThreadTimes = (into: Map<number, number>, before: ThreadTimes, after: ThreadTimes): void => {
  for (const [tid, ms] of after) into.set(tid, (into.get(tid) ?? 0) + ms - (before.get(tid) ?? 0));
};

/** Idle ms of one CPU so far (idle + iowait), from /proc/stat; NaN where unknown. */
export const cpuIdleMs = (cpu: number): number => {
  try {
    const line = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`cpu${cpu} `));
    if (line === undefined) return NaN;
    const fields = line.split(/\s+/).slice(1).map(Number);
    return (((fields[3] ?? NaN) + (fields[4] ?? NaN)) * 1000) / ticksPerSecond;
  } catch {
    return NaN;
  }
};

/**
 * One line: the main thread's CPU per request, the other threads' (the busiest three by id),
 * all in µs per request.
 */
export const describeThreads = (
  pid: number | undefined,
  times: ReadonlyMap<number, number>,
  requests: number,
): string => {
  const perRequest = (ms: number) => ((ms * 1000) / Math.max(1, requests)).toFixed(0);
  const main = times.get(pid ?? -1) ?? 0;
  const others = [...times].filter(([tid, ms]) => tid !== pid && ms > 0).sort((a, b) => b[1] - a[1]);
  const rest = others.reduce((sum, [, ms]) => sum + ms, 0);
  const top = others
    .slice(0, 3)
    .map(([tid, ms]) => `${tid}: ${perRequest(ms)}`)
    .join(', ');
  return `main ${perRequest(main)} µs/req, other threads ${perRequest(rest)} µs/req (${top || 'none'})`;
};
