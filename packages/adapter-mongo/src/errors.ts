import { StoreTimeLimitError, StoreUnavailableError, StoreWriteNotConfirmedError } from '@support/application';
import {
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb';

// Driver failures sorted by what the client of the API should do about them:
//   unavailable          the database cannot be reached, is not primary or is recovering, or
//                        a transaction was aborted (a write conflict that outlasted the
//                        retries, a failover): nothing was written, retry after a few
//                        seconds (503 with Retry-After)
//   write not confirmed  the primary applied the write but the majority did not confirm it
//                        in time, a transaction's commit has an unknown outcome, or a write
//                        outside a transaction failed after the driver's one retry (below):
//                        it may have been applied, a blind retry may apply it twice
//   time limit           the server stopped the operation at maxTimeMS: it is up, and the
//                        same operation would most likely be stopped again
// Anything else (a duplicate key the caller did not expect, a bad query) is a bug and
// propagates as it is. The driver's message never reaches a client: it is kept as the cause.

/** Server codes of a node that cannot serve now: unreachable, stepping down, shutting down, not primary, recovering. */
const unavailableServerCodes: ReadonlySet<number> = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  133, // FailedToSatisfyReadPreference (no primary to be found, e.g. through mongos)
  134, // ReadConcernMajorityNotAvailableYet (a node that has just started or stepped up)
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit (a network wait inside the cluster, not this operation's maxTimeMS)
  9001, // SocketException
  10058, // LegacyNotPrimary ("not master" from old servers and some proxies)
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/**
 * A write conflict, by its code, for an engine that sends it without the
 * TransientTransactionError label MongoDB puts on it in a transaction (DocumentDB, D1 in
 * docs/mongodb.md): the transaction was aborted and nothing of it written, so it is run again
 * (transactions.ts) and, once the retries are spent, unavailable like a labelled one.
 */
export const conflictServerCodes: ReadonlySet<number> = new Set([
  112, // WriteConflict (DocumentDB: PostgreSQL's lock timeout 55P03 or a deadlock 40P01 in a transaction)
  16777220, // PostgreSQL's serialization failure 40001, which DocumentDB's gateway passes on as its SQLSTATE's number
  // 25P02 "current transaction is aborted", as that number: what DocumentDB answers in a transaction
  // for a command with maxTimeMS (every one of ours) whose statement failed, hiding the first error
  // (its gateway resets statement_timeout after the failed statement and reports that reset's
  // failure). Mostly a conflict; whatever it was, the transaction is aborted and nothing written.
  33685826,
]);

/** WriteConcernFailed (wtimeout) as a top-level code: the write reached the primary, not yet a majority. */
const writeConcernServerCodes: ReadonlySet<number> = new Set([64]);

/** MaxTimeMSExpired: the server's own time limit for this operation. */
const timeLimitServerCodes: ReadonlySet<number> = new Set([50]);

/** Errors the driver raises without a class of their own for the pool and its wait queue. */
const unavailableErrorNames: ReadonlySet<string> = new Set(['MongoPoolClosedError', 'MongoWaitQueueTimeoutError']);

export type StoreFailure = 'unavailable' | 'write-not-confirmed' | 'time-limit';

/**
 * What the failed call was, as the client sees it: 'write' for a single-document write
 * outside a transaction whose effect the client relies on (a webhook written, a refresh
 * token used), 'read' for everything else (reads, transactions, whose errors carry their own
 * labels, and bookkeeping writes the client never sees: rate-limit counts, id counters).
 */
export type CallKind = 'read' | 'write';

const serverCode = (e: MongoError): number | null =>
  e instanceof MongoServerError && typeof e.code === 'number' ? e.code : null;

/**
 * A write outside a transaction that failed after the driver's retry: the driver labels
 * RetryableWriteError a network error or a "not primary" answer of a write outside a
 * transaction, and retries it once; the error it then raises is the last one that does not
 * say NoWritesPerformed, so an earlier attempt whose answer was lost may have been applied.
 */
const writeOutcomeUnknown = (e: MongoError): boolean =>
  e.hasErrorLabel('RetryableWriteError') &&
  !e.hasErrorLabel('NoWritesPerformed') &&
  !e.hasErrorLabel('TransientTransactionError');

/** What a failure means to the client, or null for a failure that is a bug. */
export const storeFailureOf = (e: unknown, kind: CallKind = 'read'): StoreFailure | null => {
  if (e instanceof StoreUnavailableError) return 'unavailable';
  if (e instanceof StoreWriteNotConfirmedError) return 'write-not-confirmed';
  if (e instanceof StoreTimeLimitError) return 'time-limit';
  if (!(e instanceof MongoError)) return null;
  // First: whatever its code (even a retryable shutdown), a write-concern error comes after the primary applied the write.
  if (e instanceof MongoWriteConcernError) return 'write-not-confirmed';
  // A commit that did not answer (or whose majority did not confirm) may have committed.
  if (e.hasErrorLabel('UnknownTransactionCommitResult')) return 'write-not-confirmed';
  if (kind === 'write' && writeOutcomeUnknown(e)) return 'write-not-confirmed';
  const code = serverCode(e);
  if (code !== null && writeConcernServerCodes.has(code)) return 'write-not-confirmed';
  if (code !== null && timeLimitServerCodes.has(code)) return 'time-limit';
  if (
    e instanceof MongoNetworkError || // also MongoNetworkTimeoutError and MongoPoolClearedError
    e instanceof MongoServerSelectionError ||
    e instanceof MongoOperationTimeoutError ||
    e instanceof MongoTopologyClosedError ||
    e instanceof MongoNotConnectedError ||
    e instanceof MongoClientClosedError ||
    unavailableErrorNames.has(e.name) ||
    e.hasErrorLabel('RetryableWriteError') ||
    // Labelled by the server (WriteConflict 112, NoSuchTransaction 251...) or the driver (a network error inside a transaction): the transaction was aborted.
    e.hasErrorLabel('TransientTransactionError') ||
    e.hasErrorLabel('ResetPool') ||
    e.hasErrorLabel('SystemOverloadedError')
  ) {
    return 'unavailable';
  }
  return code !== null && (unavailableServerCodes.has(code) || conflictServerCodes.has(code)) ? 'unavailable' : null;
};

export const isUnavailableError = (e: unknown): boolean => storeFailureOf(e) === 'unavailable';

/** The application's error for a classified failure, the driver's error kept only as the cause. */
const applicationError = (failure: StoreFailure, cause: unknown): Error => {
  switch (failure) {
    case 'unavailable':
      return new StoreUnavailableError(undefined, { cause });
    case 'write-not-confirmed':
      return new StoreWriteNotConfirmedError(undefined, { cause });
    case 'time-limit':
      return new StoreTimeLimitError(undefined, { cause });
  }
};

/**
 * A duplicate-key error (11000) raised by the named unique index: its `keyPattern` names the
 * field, or else its message names the index as a word, however it is phrased (MongoDB:
 * "... index: users_email_unique dup key: ...", with keyPattern; DocumentDB 0.108: "Duplicate
 * key violation on the requested collection: Index 'users_email_unique'", without).
 */
export const isDuplicateKeyOn = (e: unknown, indexName: string, field: string): boolean => {
  if (!(e instanceof MongoServerError) || e.code !== 11000) return false;
  const pattern: unknown = e['keyPattern'];
  if (typeof pattern === 'object' && pattern !== null && field in pattern) return true;
  return new RegExp(`(^|[^\\w$])${indexName}([^\\w$]|$)`).test(e.message);
};

/**
 * Runs a driver call and reports a classified failure as the application's error, never
 * with the driver's message. The deadline is a backstop over the driver's own timeouts:
 * whatever happens inside, the caller has an answer by then.
 */
export const guard = async <T>(deadlineMs: number, op: () => Promise<T>, kind: CallKind = 'read'): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new StoreUnavailableError('the data store did not answer in time'));
    }, deadlineMs);
    timer.unref();
  });
  try {
    return await Promise.race([op(), deadline]);
  } catch (e) {
    if (
      e instanceof StoreUnavailableError ||
      e instanceof StoreWriteNotConfirmedError ||
      e instanceof StoreTimeLimitError
    )
      throw e;
    const failure = storeFailureOf(e, kind);
    throw failure === null ? e : applicationError(failure, e);
  } finally {
    clearTimeout(timer);
  }
};
