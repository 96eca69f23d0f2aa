import type { MongoClientOptions } from 'mongodb';
import type { SearchSettings } from './ticket-search.js';

export interface MongoStoreOptions {
  /** A MongoDB connection string (a replica set in production: majority writes need one). */
  readonly url: string;
  /** The database; default: the one named in the URL's path, else "support". */
  readonly dbName?: string;
  /** How long an operation waits for a suitable server (primary) before failing. Default 5000. */
  readonly serverSelectionTimeoutMS?: number;
  /** How long an operation may wait for the server's answer once sent. Default 10000. */
  readonly operationTimeoutMS?: number;
  /** How ticket searches choose their plan (tests pin each plan; the default decides by cost). */
  readonly search?: Partial<SearchSettings>;
}

export const defaultServerSelectionTimeoutMS = 5_000;
export const defaultOperationTimeoutMS = 10_000;

export interface ResolvedTimeouts {
  readonly serverSelectionTimeoutMS: number;
  readonly operationTimeoutMS: number;
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
    deadlineMs: serverSelectionTimeoutMS + operationTimeoutMS + 250,
    pingDeadlineMs: serverSelectionTimeoutMS + 250,
  };
};

/**
 * Durable and fail-fast: a write is acknowledged only once a majority of the replica set
 * has it (and survives a failover), reads see only majority-committed data, writes and reads
 * are retried once by the driver across a failover, and nothing waits longer than the
 * configured seconds. (Driver 7 ignores `timeoutMS`, so the per-socket and server-side
 * limits carry the operation timeout; `guard` adds a client-side backstop.)
 */
export const mongoClientOptions = (t: ResolvedTimeouts): MongoClientOptions => ({
  writeConcern: { w: 'majority', wtimeoutMS: t.operationTimeoutMS },
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

/** The database a URL names in its path (mongodb://host/support?…), if any. */
export const databaseFromUrl = (url: string): string | null => {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]+)/.exec(url);
  const name = match?.[1];
  return name === undefined || name === '' ? null : decodeURIComponent(name);
};
