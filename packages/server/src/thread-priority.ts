import { readlink } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';

// The event loop first (docs/operations.md, "Threads"). libuv's thread pool runs the process's
// bulk disk work: the writes, fsyncs and renames of uploads, and lmdb-js's commits. Where it
// shares a core with the event loop, the scheduler gave its threads equal turns: a GET that
// arrived while 50 uploads were written waited for the CPU behind them (docs/benchmarks.md,
// "Attachments"). With a higher niceness they take the CPU when the event loop does not need it,
// and still get a share of it when it does (nice +10: about a tenth), so the writes and commits
// never stop. V8's own background threads (garbage collection, compilation) are left as they are.

/** How much nicer than the event loop the pool's threads run (capped at 19, the lowest priority). */
export const backgroundNiceness = 10;

export interface BackgroundThreads {
  /** Their niceness now (the event loop's plus `backgroundNiceness`, at most 19). */
  readonly nice: number;
  /** How many threads were lowered (none already that nice or nicer is raised). */
  readonly lowered: number;
  /** Why nothing was done (the threads cannot be found: not Linux), else null. */
  readonly unsupported: string | null;
}

/** The event loop's niceness: on Linux, getPriority(0) and setPriority(tid) act on one thread. */
const ownNiceness = (): number => getPriority(0);

/** libuv's pool size: UV_THREADPOOL_SIZE as libuv reads it (1-1024), else 4. */
export const poolSize = (env: NodeJS.ProcessEnv = process.env): number => {
  const n = Number.parseInt(env.UV_THREADPOOL_SIZE ?? '', 10);
  return Number.isNaN(n) ? 4 : Math.min(1024, Math.max(1, n));
};

/**
 * The ids of libuv's pool threads: each readlink of /proc/thread-self runs on one of them and
 * names it. Rounds of concurrent calls until every thread of the pool has answered (null: no
 * /proc/thread-self, not Linux).
 */
const poolThreads = async (size: number): Promise<Set<number> | null> => {
  const seen = new Set<number>();
  for (let round = 0; round < 50 && seen.size < size; round += 1) {
    let links: string[];
    try {
      links = await Promise.all(Array.from({ length: 4 * size }, () => readlink('/proc/thread-self')));
    } catch {
      return null;
    }
    // "<pid>/task/<tid>"
    for (const link of links) seen.add(Number(link.split('/').pop()));
  }
  return seen;
};

/**
 * Lowers the priority of libuv's pool threads (they run the file writes, fsyncs and renames of
 * uploads, and lmdb-js's commits) below the event loop's thread. V8's own background threads
 * (garbage collection) keep the event loop's priority: lowered, their work fell back on the
 * event loop under a steady load (bench:mixed: p99 1.2-1.9x). Only lowers: needs no privilege,
 * and never raises a thread an operator made nicer.
 */
export const lowerBackgroundThreads = async (): Promise<BackgroundThreads> => {
  const nice = Math.min(19, ownNiceness() + backgroundNiceness);
  const tids = await poolThreads(poolSize());
  if (tids === null) return { nice, lowered: 0, unsupported: 'no /proc/thread-self to find the threads by' };
  let lowered = 0;
  for (const tid of tids) {
    if (tid === process.pid) continue;
    try {
      if (getPriority(tid) >= nice) continue;
      setPriority(tid, nice);
      lowered += 1;
    } catch {
      // The thread ended between the listing and the call.
    }
  }
  return { nice, lowered, unsupported: null };
};
