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
   * After a commit failed: every change asked for since the last durable commit was refused,
   * so memory is ahead of the disk. Called synchronously, before any caller learns of the
   * failure, so the store can put memory back to what the disk holds.
   */
  readonly failed: (cause: Error, refused: readonly (readonly RecordChange[])[]) => void;
  /** Tests only: runs inside each commit's transaction and may throw to make it fail. */
  readonly beforeCommit?: () => void;
}

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
 * flight at a time, in the order the changes were made; a failed one refuses every later one
 * that is waiting (they were made on top of it).
 */
export class LmdbSink implements ChangeSink {
  private waiting: Waiting[] = [];
  private writing: Promise<void> | null = null;
  private scheduled = false;

  constructor(
    private readonly environment: LmdbEnvironment,
    private readonly hooks: SinkHooks,
  ) {}

  commit(changes: readonly RecordChange[]): Promise<void> {
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

  /**
   * Runs `work` once the transaction being written is done, with no transaction starting
   * until it has finished (commits asked for meanwhile wait, then go together).
   */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.writing !== null) await this.writing.catch(() => undefined);
    const running = work();
    this.writing = running.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await running;
    } finally {
      this.writing = null;
      this.writeNext();
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
    if (this.writing !== null || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.writing = this.environment.env
      .transaction(() => {
        this.hooks.beforeCommit?.();
        for (const { changes } of batch) for (const change of changes) this.apply(change);
      })
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
          this.hooks.failed(
            cause,
            refused.map((w) => w.changes),
          );
          const error = new CommitFailedError(cause);
          for (const w of refused) w.reject(error);
        },
      );
  }

  private apply(change: RecordChange): void {
    const db = this.environment.table(change.table);
    if (change.value === undefined) void db.remove(change.key as never);
    else void db.put(change.key as never, change.value);
  }
}
