/** What MetaFlushes reads and asks of the LMDB environment. */
export interface MetaFlushEnvironment {
  /** The id of the newest committed write transaction (its meta page written, maybe not yet on the device). */
  readonly lastTxnId: () => number;
  /** Flushes the store file to the device; every transaction committed before the call is durable once it resolves. */
  readonly sync: () => Promise<void>;
}

interface Waiter {
  /** The newest committed transaction when the call's commit was learnt: the call's is this one or an earlier one. */
  readonly txn: number;
  readonly durable: () => void;
  readonly failed: (e: Error) => void;
}

/**
 * When a commit is durable. The store's environment is opened with LMDB's `MDB_NOMETASYNC`:
 * a commit writes its pages, flushes them (`fdatasync`), then writes its meta page (the page
 * that makes the transaction the newest) without flushing it. So a commit costs the device one
 * flush instead of two (without the flag the meta page goes through a second, `O_DSYNC`
 * descriptor). Transaction t is durable, meta page included, once a flush begun after its meta
 * page was written has ended: the data flush of any later transaction (it flushes every dirty
 * page of the file, t's meta page among them, before that transaction's own meta page is
 * written), or a flush of the file asked for on purpose (`sync`).
 *
 * Under a stream of writes each commit's flush makes the one before it durable, and no flush
 * is asked for; when nothing more is on its way to the disk, `idle` asks for one for those
 * still waiting. A call is answered no later than before (its commit, then one more flush),
 * and a transaction that LMDB shows as committed but is not yet durable is never answered.
 * A crash of the process loses nothing either way (the pages are in the kernel's cache); a
 * power cut can lose only transactions not yet answered, and LMDB's file stays whole (a meta
 * page is written only after the pages it points to were flushed).
 */
export class MetaFlushes {
  /** Calls waiting for their transaction's meta page to reach the device, oldest first. */
  private waiting: Waiter[] = [];
  private flushing = false;
  private flushAgain = false;

  constructor(private readonly environment: MetaFlushEnvironment) {}

  /** Call right after a call's commit was learnt: resolves once that commit is durable, rejects if the flush fails. */
  durable(): Promise<void> {
    const txn = this.environment.lastTxnId();
    return new Promise<void>((durable, failed) => {
      this.waiting.push({ txn, durable, failed });
    });
  }

  /** Call after every commit learnt: the data flush of transaction n made every meta page before n's durable. */
  committed(): void {
    const newest = this.environment.lastTxnId();
    let released = 0;
    while (released < this.waiting.length && (this.waiting[released] as Waiter).txn < newest) {
      (this.waiting[released] as Waiter).durable();
      released += 1;
    }
    if (released > 0) this.waiting.splice(0, released);
  }

  /** Call when nothing more is on its way to the disk: flushes the file for every call still waiting. */
  idle(): void {
    if (this.waiting.length === 0) return;
    if (this.flushing) {
      // The flush running may have begun before these calls' meta pages were written.
      this.flushAgain = true;
      return;
    }
    const covered = this.waiting;
    this.waiting = [];
    this.flushing = true;
    const done = (outcome: Error | null): void => {
      this.flushing = false;
      for (const w of covered) {
        if (outcome === null) w.durable();
        else w.failed(outcome);
      }
      if (this.flushAgain) {
        this.flushAgain = false;
        this.idle();
      }
    };
    this.environment.sync().then(
      () => {
        done(null);
      },
      (e: unknown) => {
        done(e instanceof Error ? e : new Error(String(e)));
      },
    );
  }
}
