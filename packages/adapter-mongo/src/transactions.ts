import { MongoError, MongoServerError, WriteConcern, type ClientSession, type TransactionOptions } from 'mongodb';
import { conflictServerCodes } from './errors.js';

// Every write of a ticket, message, user or group runs in a transaction that also appends its
// events to the change feed (event-log.ts), so a change and its event commit together or not
// at all. The loop below is the driver's convenient-transaction algorithm (ClientSession
// withTransaction: retry the whole transaction on a TransientTransactionError after a jittered
// backoff of 5 ms × 1.5^attempt, at most 500 ms), with three differences a request needs:
//   - a write conflict is run again by its code too (errors.ts, conflictServerCodes), for an
//     engine that does not label it (DocumentDB, D1 in docs/mongodb.md): a conflict in a
//     transaction aborts it whole, so running it again cannot write anything twice;
//   - it gives up at the caller's deadline, not after the driver's fixed 120 s: driver 7.9
//     ignores timeoutMS (sessions.js: "timeoutMS is a no-op"), and a transaction still retrying
//     after the request was answered 503 could commit behind the client's back;
//   - a commit whose outcome is unknown (UnknownTransactionCommitResult: the majority did not
//     confirm in time, or the connection dropped) is not re-sent for minutes: the driver has
//     already retried it once (a commit is a retryable write), and the answer is then "may
//     have been applied" (errors.ts), which is the truth.

/** Where transactions come from: the client, or a deployment that cannot run them. */
export interface SessionSource {
  startSession(): ClientSession;
  /**
   * Why this deployment cannot run transactions (a standalone mongod accepted by
   * MONGO_ALLOW_STANDALONE), or null. Writes are then refused before anything is sent.
   */
  transactionsRefused(): string | null;
}

/** A write refused because the deployment cannot record it with its event: a configuration defect (500), never retried. */
export class TransactionsUnavailableError extends Error {
  override readonly name = 'TransactionsUnavailableError';
}

export const refuseWithoutTransactions = (sessions: SessionSource): void => {
  const why = sessions.transactionsRefused();
  if (why !== null) throw new TransactionsUnavailableError(why);
};

/**
 * Snapshot reads (every read of the transaction sees one point in time, its own writes on
 * top), a majority commit, the primary only. `maxTimeMS` bounds the commit's wait for the
 * majority (wtimeout) and the commit itself.
 */
export const transactionOptions = (maxTimeMS: number): TransactionOptions => ({
  readConcern: { level: 'snapshot' },
  writeConcern: new WriteConcern('majority', maxTimeMS),
  readPreference: 'primary',
  maxCommitTimeMS: maxTimeMS,
});

const hasLabel = (e: unknown, label: string): boolean => e instanceof MongoError && e.hasErrorLabel(label);

/** Whether the transaction was aborted by something that may not happen again: labelled so, or a write conflict an engine did not label (errors.ts). */
const transient = (e: unknown): boolean =>
  hasLabel(e, 'TransientTransactionError') ||
  (e instanceof MongoServerError && typeof e.code === 'number' && conflictServerCodes.has(e.code));

/** The driver's backoff before retry `attempt` (1, 2, ...): jitter × min(5 ms × 1.5^attempt, 500 ms). */
export const backoffMs = (attempt: number): number => Math.random() * Math.min(5 * 1.5 ** attempt, 500);

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface TransactionLimits {
  /** The server's limit of each operation and of the commit's wait for the majority. */
  readonly maxTimeMS: number;
  /** No attempt starts later than this many ms after the first (a request's patience). */
  readonly retryWindowMs: number;
}

/**
 * Runs `work` in a transaction and commits it; `work` may run more than once (each run
 * starts from a fresh snapshot), so it must do nothing but reads and writes on `session`.
 * Rejects with the error that ended it: `work`'s own (the transaction is then aborted, nothing
 * written), a transient one that outlasted the retry window (nothing written), or the
 * commit's (written or not: UnknownTransactionCommitResult says which is unknown).
 */
export const inTransaction = async <T>(
  sessions: SessionSource,
  limits: TransactionLimits,
  work: (session: ClientSession) => Promise<T>,
): Promise<T> => {
  refuseWithoutTransactions(sessions);
  const session = sessions.startSession();
  const until = Date.now() + limits.retryWindowMs;
  try {
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) await pause(backoffMs(attempt));
      session.startTransaction(transactionOptions(limits.maxTimeMS));
      let result: T;
      try {
        result = await work(session);
      } catch (e) {
        // The driver ignores an abort's own failure; the server ends an abandoned transaction itself.
        if (session.inTransaction()) await session.abortTransaction();
        if (transient(e) && Date.now() < until) continue;
        throw e;
      }
      try {
        await session.commitTransaction();
        return result;
      } catch (e) {
        // Transient at commit (e.g. NoSuchTransaction after a failover): nothing was written, run it again.
        if (transient(e) && !hasLabel(e, 'UnknownTransactionCommitResult') && Date.now() < until) continue;
        throw e;
      }
    }
  } finally {
    await session.endSession();
  }
};
