import type { ChangeSink, RecordChange } from '@support/adapter-memory';
import { StoreUnavailableError } from '@support/application';
import type { LmdbEnvironment } from './environment.js';

export interface SinkHooks {
  /** After each call's changes are durable, in the calls' order, with those changes (the feed learns its newest durable seq here). */
  readonly committed: (changes: readonly RecordChange[]) => void;
  /**
   * After a commit failed: memory is ahead of the disk from then on, so the sink refuses every
   * commit from then on (fail-stop; docs/embedded-store.md, "Faults"). Called once,
   * synchronously, before any caller learns of the failure; `why` resolves with the system's
   * own error (lmdb-js rejects with "Commit failed" and keeps the I/O error aside).
   */
  readonly failed: (cause: Error, why: Promise<Error>) => void;
  /** Tests only: runs inside each call's child transaction, after its changes were put, and may throw to make it fail. */
  readonly beforeCommit?: () => void;
  /** Tests only: awaited once a call's changes are durable, before anyone learns of it (a slow commit). */
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

/** The meta record holding the number of the last port call whose changes reached LMDB (the commits' order on disk). */
export const commitOrderKey = 'lastCommit';

/**
 * Group commit into LMDB. Each port call's changes go to lmdb-js at once, as one child
 * transaction (all or nothing: a throw part-way aborts all of that call's puts; lmdb-js's plain
 * `transaction` would commit the puts made before the throw). lmdb-js puts every child
 * transaction asked for while the previous transaction is being written and synced into the
 * next one (group commit), and hands that next one to its write thread as soon as the previous
 * one is durable, without a turn of the event loop in between. The calls' answers come in the
 * order they were asked for.
 *
 * A failed commit refuses it and every commit after it, for good: memory holds changes the disk
 * does not, and only a restart (which loads what the disk holds) puts them back in step. The
 * later calls may already be queued in lmdb-js when the failure is learnt, so each one checks
 * on disk, inside its own transaction, that the call before it was written
 * (`commitOrderKey`), and refuses itself otherwise: nothing ever reaches the disk on top of a
 * refused commit.
 */
export class LmdbSink implements ChangeSink {
  /** The number of the last call handed to lmdb-js; the disk's `commitOrderKey` catches up with it. */
  private handed: number;
  /** Settles after every call handed so far has settled (in order). */
  private tail: Promise<void> = Promise.resolve();
  private pendingCount = 0;
  private failure: CommitFailedError | null = null;

  constructor(
    private readonly environment: LmdbEnvironment,
    private readonly hooks: SinkHooks,
    private readonly orderTable = 'meta',
  ) {
    const last: unknown = environment.table(orderTable).get(commitOrderKey);
    this.handed = typeof last === 'number' ? last : 0;
  }

  commit(changes: readonly RecordChange[]): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    this.handed += 1;
    const number = this.handed;
    const written = this.environment.env.childTransaction(() => {
      this.write(number, changes);
    });
    // Callers learn in order: a call's answer never overtakes an earlier call's failure.
    const settled = this.tail.then(async () => {
      if (this.failure !== null) throw this.failure;
      try {
        await written;
        await this.hooks.slowCommit?.();
      } catch (e) {
        throw this.fail(e);
      }
      this.hooks.committed(changes);
    });
    this.pendingCount += 1;
    this.tail = settled.then(
      () => void (this.pendingCount -= 1),
      () => void (this.pendingCount -= 1),
    );
    // A refusal after the first one is a consequence of it, already said.
    written.catch(() => undefined);
    return settled;
  }

  /** Resolves once nothing is being written. */
  async drain(): Promise<void> {
    while (this.pendingCount > 0) await this.tail;
  }

  /** Inside the call's child transaction, on the main thread. */
  private write(number: number, changes: readonly RecordChange[]): void {
    const order = this.environment.table(this.orderTable);
    const before: unknown = order.get(commitOrderKey);
    if ((typeof before === 'number' ? before : 0) !== number - 1)
      throw new Error(
        `an earlier commit did not reach the disk (call ${String(number - 1)}; the disk holds ${String(before)})`,
      );
    for (const change of changes) this.apply(change);
    order.putSync(commitOrderKey, number);
    this.hooks.beforeCommit?.();
  }

  /** The first failure (later ones follow from it): refuses every commit from now on and says why, once. */
  private fail(e: unknown): CommitFailedError {
    if (this.failure !== null) return this.failure;
    const cause = e instanceof Error ? e : new Error(String(e));
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
    return this.failure;
  }

  private apply(change: RecordChange): void {
    const db = this.environment.table(change.table);
    if (change.value === undefined) db.removeSync(change.key as never);
    else db.putSync(change.key as never, change.value);
  }
}
