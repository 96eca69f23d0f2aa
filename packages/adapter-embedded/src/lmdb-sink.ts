import type { ChangeSink, RecordChange } from '@support/adapter-memory';
import { StoreUnavailableError } from '@support/application';
import { IF_EXISTS } from 'lmdb';
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
  /** Tests only: runs as each call is handed to lmdb-js, and may throw to make that call's commit fail (none of its changes is written). */
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

/** The prefix of the meta records that chain the calls handed to lmdb-js (`gate:<n>`: call n reached the disk). */
export const gatePrefix = 'gate:';
const gateKey = (n: number): string => `${gatePrefix}${String(n)}`;

/**
 * Group commit into LMDB. Each port call's changes are queued for lmdb-js's write thread at
 * once, as plain writes inside one conditional block (`ifVersion`): lmdb-js puts a block whole
 * into one transaction, and a transaction holds every block queued while the one before it was
 * being written and synced (group commit). Nothing runs on the event loop's thread inside a
 * transaction: a child transaction per call (the way before) made the write thread call back
 * into the event loop for each call and cost the event loop about twice the CPU per commit
 * (bench:lmdb-handover; docs/benchmarks.md, "Mixed load"). The calls' answers come in the order
 * they were asked for.
 *
 * A failed commit refuses it and every commit after it, for good: memory holds changes the disk
 * does not, and only a restart (which loads what the disk holds) puts them back in step. The
 * later calls may already be queued in lmdb-js when the failure is learnt, so each call's block
 * is conditional on the record the call before it writes (`gate:<n-1>`, which call n replaces
 * with `gate:<n>`): the write thread skips the block of a call whose predecessor is not on
 * disk, and the call refuses itself. Nothing ever reaches the disk on top of a refused commit.
 */
export class LmdbSink implements ChangeSink {
  /** The number of the last call handed to lmdb-js; the disk's gate record catches up with it. */
  private handed = 0;
  /** Settles after every call handed so far has settled (in order). */
  private tail: Promise<void> = Promise.resolve();
  private pendingCount = 0;
  private failure: CommitFailedError | null = null;

  constructor(
    private readonly environment: LmdbEnvironment,
    private readonly hooks: SinkHooks,
    private readonly orderTable = 'meta',
  ) {
    // The chain starts again with each process: the gate records a previous one left are replaced by gate:0.
    const gates = environment.table(orderTable);
    environment.env.transactionSync(() => {
      for (const key of gates.getKeys({ start: gatePrefix, end: `${gatePrefix}~` })) gates.removeSync(key);
      gates.putSync(gateKey(0), true);
    });
  }

  commit(changes: readonly RecordChange[]): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    this.handed += 1;
    const number = this.handed;
    const written = this.queue(number, changes);
    // Callers learn in order: a call's answer never overtakes an earlier call's failure.
    const settled = this.tail.then(async () => {
      if (this.failure !== null) throw this.failure;
      try {
        const outcome = await written;
        if (outcome !== true) throw outcome === false ? this.gap(number) : outcome;
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

  /**
   * Queues call `number`'s writes as one block that lmdb-js's write thread runs only if call
   * `number - 1` reached the disk. Resolves true once durable, false when skipped; with the
   * tests' `beforeCommit` error when that hook refused the call (its block is queued on a
   * condition that never holds, so it is skipped like a call after a failed commit).
   */
  private queue(number: number, changes: readonly RecordChange[]): Promise<boolean | Error> {
    const gates = this.environment.table(this.orderTable);
    let injected: Error | null = null;
    try {
      this.hooks.beforeCommit?.();
    } catch (e) {
      injected = e instanceof Error ? e : new Error(String(e));
    }
    const condition = injected === null ? gateKey(number - 1) : `${gatePrefix}never`;
    let block: Promise<boolean>;
    try {
      block = gates.ifVersion(condition, IF_EXISTS, () => {
        for (const change of changes) this.apply(change);
        void gates.put(gateKey(number), true);
        void gates.remove(gateKey(number - 1));
      });
    } catch (e) {
      // A change lmdb-js could not take (a bug: records are plain data with short keys). The
      // writes queued before it may reach the disk, but this call's gate record does not, so
      // no later call does: the store stops here (fail-stop).
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    return injected === null ? block : block.then((): Error => injected);
  }

  /** The refusal of a call whose block the write thread skipped: the call before it is not on disk. */
  private gap(number: number): Error {
    return new Error(`an earlier commit did not reach the disk (call ${String(number - 1)})`);
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
    if (change.value === undefined) void db.remove(change.key as never);
    else void db.put(change.key as never, change.value);
  }
}
