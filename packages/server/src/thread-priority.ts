import { readdir } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';

// The event loop first (docs/operations.md, "Threads"). Besides the event loop's thread, the
// process runs V8's background threads (garbage collection, compilation) and libuv's thread
// pool (file writes, fsync and rename of uploads, lmdb-js's commits). Where they share a core
// with the event loop, the scheduler gave them equal turns: a GET that arrived while 50 uploads
// were written waited for the CPU behind them (docs/benchmarks.md, "Attachments"). With a
// higher niceness they take the CPU when the event loop does not need it, and still get a share
// of it when it does (nice +10: about a tenth), so the writes and commits they carry never stop.

/** How much nicer than the event loop the other threads run (capped at 19, the lowest priority). */
export const backgroundNiceness = 10;

export interface BackgroundThreads {
  /** Their niceness now (the event loop's plus `backgroundNiceness`, at most 19). */
  readonly nice: number;
  /** How many threads were lowered (none already that nice or nicer is raised). */
  readonly lowered: number;
  /** Why nothing was done (no per-thread listing: not Linux), else null. */
  readonly unsupported: string | null;
}

const tidsOf = async (): Promise<number[] | null> => {
  try {
    // A call on libuv's pool: its threads (all started together on the first call) are listed.
    return (await readdir('/proc/self/task')).map(Number);
  } catch {
    return null;
  }
};

/**
 * Lowers the priority of every thread of this process but the calling one (the event loop's).
 * Threads started later by the event loop's thread inherit its priority; those started by a
 * lowered thread inherit the lower one. Only lowers: needs no privilege, and never raises a
 * thread an operator made nicer.
 */
export const lowerBackgroundThreads = async (): Promise<BackgroundThreads> => {
  // On Linux, getPriority(0)/setPriority(tid) act on one thread: this one, and `tid`.
  const nice = Math.min(19, getPriority(0) + backgroundNiceness);
  const tids = await tidsOf();
  if (tids === null) return { nice, lowered: 0, unsupported: 'no /proc/self/task to list the threads in' };
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
