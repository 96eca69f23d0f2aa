import type { ChangeSink, RecordChange } from '@support/adapter-memory';
import { StoreUnavailableError } from '@support/application';
import type { LmdbEnvironment } from './environment.js';

interface Waiting {
  readonly changes: readonly RecordChange[];
  readonly resolve: () => void;
  readonly reject: (e: Error) => void;
}

export interface SinkHooks {
  /** After each durable commit, with the changes it held (the feed learns its newest durable seq here). */
  readonly committed: (changes: readonly RecordChange[]) => void;
  /**
   * After a commit failed: memory is ahead of the disk from then on, so the sink refuses every
   * commit from then on (fail-stop; docs/embedded-store.md, "Faults"). Called once,
   * synchronously, before any caller learns of the failure; `why` resolves with the system's
   * own error (lmdb-js rejects with "Commit failed" and keeps the I/O error aside).
   */
  readonly failed: (cause: Error, why: Promise<Error>) => void;
  /** Tests only: runs inside each commit's transaction, after its changes were put, and may throw to make it fail. */
  readonly beforeCommit?: () => void;
  /** Tests only: awaited once a commit is durable, before anyone learns of it (a slow commit). */
  readonly slowCommit?: () => Promise<void>;
}

/**
 * Whether an unhandled rejection is one lmdb-js leaves behind when a commit fails (its
 * `commitError` promise and the per-write "Commit failed" errors, which nothing awaits): the
 * sink has already refused the commit and the store stops (fail-stop), so the process ignores
 * them instead of dying of them before it can say why.
 */
export const isLmdbCommitRejection = (reason: unknown): boolean =>
  reason instanceof Error &&
  (reason.message.startsWith('Commit failed (see commitError') || /[/\\]lmdb[/\\]write\.js:/.test(reason.stack ?? ''));

/** Raised to the callers of a refused commit (the HTTP adapter answers 503). */
export class CommitFailedError extends StoreUnavailableError {
  constructor(cause: Error) {
    super(`the embedded store could not commit: ${cause.message}`, { cause });
    this.name = 'CommitFailedError';
  }
}

/**
 * Group commit into LMDB. Port calls ask for commits at any time; those that arrive while one
 * transaction is being written and synced wait together and go into the next one, so the
 * number of syncs per second stays bounded whatever the write rate. One transaction is in
 * flight at a time, in the order the changes were made. Each is all or nothing: its changes are
 * put in a child transaction, which a throw part-way aborts whole (lmdb-js's plain
 * `transaction` would commit the puts made before the throw). A failed commit refuses it and
 * every commit after it, for good: memory holds changes the disk does not, and only a restart
 * (which loads what the disk holds) puts them back in step.
 */
export class LmdbSink implements ChangeSink {
  private waiting: Waiting[] = [];
  private writing: Promise<void> | null = null;
  private scheduled = false;
  private failure: CommitFailedError | null = null;

  constructor(
    private readonly environment: LmdbEnvironment,
    private readonly hooks: SinkHooks,
  ) {}

  commit(changes: readonly RecordChange[]): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const done = new Promise<void>((resolve, reject) => {
      this.waiting.push({ changes, resolve, reject });
    });
    this.schedule();
    return done;
  }

  /** Resolves once nothing is waiting or being written. */
  async drain(): Promise<void> {
    while (this.writing !== null || this.waiting.length > 0) {
      const writing = this.writing ?? new Promise<void>((resolve) => setImmediate(resolve));
      await writing.catch(() => undefined);
    }
  }

  private schedule(): void {
    if (this.scheduled || this.writing !== null) return;
    this.scheduled = true;
    // Every port call of this turn of the event loop joins the transaction.
    setImmediate(() => {
      this.scheduled = false;
      this.writeNext();
    });
  }

  private writeNext(): void {
    if (this.writing !== null || this.waiting.length === 0 || this.failure !== null) return;
    const batch = this.waiting;
    this.waiting = [];
    this.writing = this.environment.env
      .childTransaction(() => {
        for (const { changes } of batch) for (const change of changes) this.apply(change);
        this.hooks.beforeCommit?.();
      })
      .then(() => this.hooks.slowCommit?.())
      .then(
        () => {
          this.writing = null;
          for (const { changes } of batch) this.hooks.committed(changes);
          for (const w of batch) w.resolve();
          this.writeNext();
        },
        (e: unknown) => {
          this.writing = null;
          const cause = e instanceof Error ? e : new Error(String(e));
          const refused = [...batch, ...this.waiting];
          this.waiting = [];
          this.failure = new CommitFailedError(cause);
          const aside = (e as { commitError?: unknown } | null)?.commitError;
          const why =
            aside instanceof Promise
              ? aside.then(
                  () => cause,
                  (x: unknown) => (x instanceof Error ? x : cause),
                )
              : Promise.resolve(cause);
          this.hooks.failed(cause, why);
          for (const w of refused) w.reject(this.failure);
        },
      );
  }

  private apply(change: RecordChange): void {
    const db = this.environment.table(change.table);
    if (change.value === undefined) db.removeSync(change.key as never);
    else db.putSync(change.key as never, change.value);
  }
}
