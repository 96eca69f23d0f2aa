import type { MongoClientOptions } from 'mongodb';

export interface MongoStoreOptions {
  /** A MongoDB connection string (a replica set: the writes' transactions need one). */
  readonly url: string;
  /** The database; default: the one named in the URL's path, else "support". */
  readonly dbName?: string;
  /** How long an operation waits for a suitable server (primary) before failing. Default 5000. */
  readonly serverSelectionTimeoutMS?: number;
  /** How long an operation may wait for the server's answer once sent. Default 10000. */
  readonly operationTimeoutMS?: number;
  /** How ticket searches choose their plan (tests pin each plan; the default decides by cost). */
  readonly search?: Partial<SearchSettings>;
  /**
   * Accept a standalone mongod (no replica set) read-only, with a warning: it has no
   * transactions, so every write of a ticket, message, user or group (which records its
   * change-feed event in one) is refused, and no retryable writes. Default false: the start
   * is refused with a line saying so.
   */
  readonly allowStandalone?: boolean;
  /**
   * Leave out the TTL indexes, for a server that has none (FerretDB 1.x, in tests): expired
   * tokens and past rate-limit windows are then never deleted (every lookup still checks
   * expiry, and windows are keyed by their start, so answers are unchanged; only space grows).
   */
  readonly withoutTtlIndexes?: boolean;
}

export const defaultServerSelectionTimeoutMS = 5_000;
export const defaultOperationTimeoutMS = 10_000;

/**
 * How much sooner than the socket gives up the server stops an operation (maxTimeMS): the
 * server's own answer "time limit reached" must arrive while the socket still listens, or
 * the client sees a cut connection (and the pool is cleared) instead of a clear answer.
 */
export const serverAnswerMarginMs = (operationTimeoutMS: number): number =>
  Math.max(1, Math.min(1_000, Math.floor(operationTimeoutMS / 4)));

export interface ResolvedTimeouts {
  readonly serverSelectionTimeoutMS: number;
  /** How long a socket waits for an answer (socketTimeoutMS). */
  readonly operationTimeoutMS: number;
  /** The server's limit of each operation and of its wait for the majority: operationTimeoutMS less the margin. */
  readonly maxTimeMS: number;
  /** The backstop of every call: selection, then the answer, then a little slack. */
  readonly deadlineMs: number;
  /** How long a health ping may take before it answers false. */
  readonly pingDeadlineMs: number;
}

export const resolveTimeouts = (o: MongoStoreOptions): ResolvedTimeouts => {
  const serverSelectionTimeoutMS = o.serverSelectionTimeoutMS ?? defaultServerSelectionTimeoutMS;
  const operationTimeoutMS = o.operationTimeoutMS ?? defaultOperationTimeoutMS;
  return {
    serverSelectionTimeoutMS,
    operationTimeoutMS,
    maxTimeMS: Math.max(1, operationTimeoutMS - serverAnswerMarginMs(operationTimeoutMS)),
    deadlineMs: serverSelectionTimeoutMS + operationTimeoutMS + 250,
    pingDeadlineMs: serverSelectionTimeoutMS + 250,
  };
};

/**
 * Durable and fail-fast: a write is acknowledged only once a majority of the replica set
 * has it (and survives a failover), reads see only majority-committed data, writes and reads
 * are retried once by the driver across a failover, and nothing waits longer than the
 * configured seconds. Sockets wait the operation timeout; the server's limits (maxTimeMS,
 * wtimeoutMS) end a little sooner, so that its answer "time limit reached" (50, or a write
 * concern timeout) is heard instead of a cut connection. (The driver in use, 7.9, parses `timeoutMS` and ignores
 * it: connection_string.ts marks it `ignored`, and timeout.ts never creates a CSOT context;
 * `guard` adds a client-side backstop over all of it.)
 */
export const mongoClientOptions = (t: ResolvedTimeouts): MongoClientOptions => ({
  writeConcern: { w: 'majority', wtimeoutMS: t.maxTimeMS },
  readConcern: { level: 'majority' },
  readPreference: 'primary',
  retryWrites: true,
  retryReads: true,
  serverSelectionTimeoutMS: t.serverSelectionTimeoutMS,
  connectTimeoutMS: t.serverSelectionTimeoutMS,
  socketTimeoutMS: t.operationTimeoutMS,
  waitQueueTimeoutMS: t.operationTimeoutMS,
  // The monitors notice a returning database within a second while operations wait for it.
  minHeartbeatFrequencyMS: 500,
  heartbeatFrequencyMS: 5_000,
  appName: 'support-ticket-service',
});

/**
 * The client of the start's index builds and repairs: the same connection settings without
 * a socket timeout (building an index over a large collection takes as long as it takes)
 * and without a write-concern time limit (a build is acknowledged when it is done).
 */
export const maintenanceClientOptions = (t: ResolvedTimeouts): MongoClientOptions => ({
  ...mongoClientOptions(t),
  writeConcern: { w: 'majority' },
  socketTimeoutMS: 0,
  appName: 'support-ticket-service (start)',
});

/** The database a URL names in its path (mongodb://host/support?…), if any. */
export const databaseFromUrl = (url: string): string | null => {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]+)/.exec(url);
  const name = match?.[1];
  return name === undefined || name === '' ? null : decodeURIComponent(name);
};

export interface SearchSettings {
  /**
   * How a search finds its page: by estimated cost (the default), always by walking the
   * sort indexes, or always by sorting the matches' keys in the adapter (tests pin each).
   */
  readonly plan: 'cost' | 'walk-index' | 'sort-matches';
  /** A tie run up to this length is sorted in the adapter; a longer one is walked through the next rule's index. */
  readonly runSortLimit: number;
}

export const defaultSearchSettings: SearchSettings = { plan: 'cost', runSortLimit: 1024 };
