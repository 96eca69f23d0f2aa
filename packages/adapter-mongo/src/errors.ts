import { StoreUnavailableError } from '@support/application';
import {
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
  MongoClientClosedError,
} from 'mongodb';

// Which driver failures mean "the database cannot be reached or does not answer" (the
// application's StoreUnavailableError, 503) and which are bugs (they propagate as they are).

/** Server error codes of a node that is stepping down, shutting down, not primary or too slow. */
const unavailableServerCodes: ReadonlySet<number> = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  64, // WriteConcernFailed (wtimeout: the majority did not acknowledge in time)
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/** Errors the driver raises without a class of their own for the pool and its wait queue. */
const unavailableErrorNames: ReadonlySet<string> = new Set(['MongoPoolClosedError', 'MongoWaitQueueTimeoutError']);

export const isUnavailableError = (e: unknown): boolean => {
  if (e instanceof StoreUnavailableError) return true;
  if (!(e instanceof MongoError)) return false;
  if (
    e instanceof MongoNetworkError || // also MongoNetworkTimeoutError and MongoPoolClearedError
    e instanceof MongoServerSelectionError ||
    e instanceof MongoOperationTimeoutError ||
    e instanceof MongoTopologyClosedError ||
    e instanceof MongoNotConnectedError ||
    e instanceof MongoClientClosedError ||
    e instanceof MongoWriteConcernError
  ) {
    return true;
  }
  if (unavailableErrorNames.has(e.name)) return true;
  if (e.hasErrorLabel('RetryableWriteError') || e.hasErrorLabel('ResetPool') || e.hasErrorLabel('SystemOverloadedError')) return true;
  return e instanceof MongoServerError && typeof e.code === 'number' && unavailableServerCodes.has(e.code);
};

/** A duplicate-key error (11000) raised by the named unique index. */
export const isDuplicateKeyOn = (e: unknown, indexName: string, field: string): boolean => {
  if (!(e instanceof MongoServerError) || e.code !== 11000) return false;
  const pattern: unknown = e['keyPattern'];
  if (typeof pattern === 'object' && pattern !== null && field in pattern) return true;
  return e.message.includes(`index: ${indexName} `);
};

/**
 * Runs a driver call and reports an unreachable or silent database as StoreUnavailableError,
 * never with the driver's message (it is kept as the cause, for the logs). The deadline is a
 * backstop over the driver's own timeouts: whatever happens inside, the caller has an answer
 * by then.
 */
export const guard = async <T>(deadlineMs: number, op: () => Promise<T>): Promise<T> => {
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
    if (e instanceof StoreUnavailableError) throw e;
    if (isUnavailableError(e)) throw new StoreUnavailableError(undefined, { cause: e });
    throw e;
  } finally {
    clearTimeout(timer);
  }
};
