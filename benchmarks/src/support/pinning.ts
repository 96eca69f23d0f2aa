// Core pinning with util-linux's taskset: the server under test on one core, this process (the
// load generator) on another, so neither steals the other's CPU and each server gets the same.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/** "0-2,5" -> [0, 1, 2, 5] */
const parseCpuList = (list: string): number[] =>
  list
    .trim()
    .split(',')
    .flatMap((part) => {
      const [from = NaN, to = from] = part.split('-').map(Number);
      return Array.from({ length: to - from + 1 }, (_, i) => from + i);
    });

const taskset = (args: string[]) =>
  execFileSync('taskset', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export interface Pinning {
  readonly pinned: boolean;
  /** The command prefix that starts a child on the server's core ([] when unpinned). */
  readonly prefix: readonly string[];
  /** Why nothing is pinned (the caller prints it loudly); null when pinned. */
  readonly warning: string | null;
  readonly serverCpu?: number;
  readonly loadCpu?: number;
}

/**
 * Pins this process (every thread: `-a`) to the second CPU it may use and answers the command
 * prefix that starts a child on the first one. Without taskset, or with fewer than two CPUs,
 * everything runs unpinned and `warning` says why.
 */
export const pinLoadGenerator = (): Pinning => {
  let allowed: number[];
  try {
    // "pid 123's current affinity list: 0,1"
    allowed = parseCpuList(
      taskset(['-cp', String(process.pid)])
        .split(':')
        .pop() ?? '',
    );
  } catch (e) {
    const error = e as NodeJS.ErrnoException;
    const why =
      error.code === 'ENOENT'
        ? 'taskset is not installed (util-linux)'
        : `taskset failed: ${error.message.split('\n')[0] ?? ''}`;
    return { pinned: false, prefix: [], warning: `${why}: servers and load generator run UNPINNED, sharing cores` };
  }
  const [serverCpu, loadCpu] = allowed;
  if (serverCpu === undefined || loadCpu === undefined) {
    return {
      pinned: false,
      prefix: [],
      warning: `only CPU ${allowed.join(',')} is available: servers and load generator run UNPINNED on it`,
    };
  }
  taskset(['-a', '-cp', String(loadCpu), String(process.pid)]);
  return { pinned: true, serverCpu, loadCpu, prefix: ['taskset', '-c', String(serverCpu)], warning: null };
};

/**
 * Runs the process `pid` (a reader timing requests, sharing its core with the load generator)
 * before the load generator's threads: niceness -5 (needs root or CAP_SYS_NICE). Answers a
 * warning to print when that was refused, else null.
 */
export const favour = (pid: number | undefined): string | null => {
  try {
    setPriority(pid ?? 0, -5);
    return null;
  } catch (e) {
    return `the reader could not be favoured over the load generator (${(e as Error).message}): its own waits for the CPU count in its timings`;
  }
};

/**
 * RENICE_BG=N (an experiment): every thread of process `pid` but its event loop's (V8's
 * background threads, libuv's pool) gets niceness N after the start; going back below a value
 * set before needs root. docs/benchmarks.md, "Attachments": what it gave.
 */
export const reniceBackground = (pid: number | undefined): string | null => {
  const raw = process.env['RENICE_BG'];
  if (raw === undefined || raw === '' || pid === undefined) return null;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) if (Number(tid) !== pid) setPriority(Number(tid), Number(raw));
  } catch (e) {
    console.error(`RENICE_BG=${raw}: ${(e as Error).message} (raising a thread's priority needs root or CAP_SYS_NICE)`);
    process.exit(2);
  }
  return `RENICE_BG=${raw}: the service's threads but the event loop's at niceness ${raw}`;
};
