import type { DeprecationSchedule } from './conventions/deprecation.js';
import { defaultDeprecations } from './conventions/deprecation.js';
import { apiVersions, type ApiVersions } from './conventions/api-version.js';
import { defaultUploadConcurrency, defaultUploadMinBytesPerSecond } from './conventions/upload-pacing.js';
import { defaultRequestTimeoutMs } from './node/request-receipt.js';

/** One-line structured logging; the HTTP adapter never hands it a token or a password. */
export interface HttpLogger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** 64 MiB: about 50,000 single tickets with their gzip, or 2,500 pages of 30. */
export const defaultResponseCacheBytes = 64 * 2 ** 20;

/** The start-up steps not done yet (e.g. the first admin, the store's preparation): /readyz is 503 until none is left. */
export interface StartupProgress {
  pending(): readonly string[];
}

const started: StartupProgress = { pending: () => [] };

export interface HttpOptions {
  /** Origin of every absolute URL the API emits, e.g. https://localhost:8443 (no trailing slash). */
  readonly publicUrl: string;
  /** Honour X-Forwarded-Proto / X-Forwarded-For (the last hop only). */
  readonly trustProxy: boolean;
  readonly logger: HttpLogger;
  /** Minor versions served through X-Api-Version. */
  readonly versions?: ApiVersions;
  /** Deprecated behaviour and its schedule (GET /v1/deprecations, Deprecation/Sunset headers). */
  readonly deprecations?: DeprecationSchedule;
  /** Bodies smaller than this many bytes are sent uncompressed (default 1: every non-empty body is gzipped when accepted). */
  readonly compressionThreshold?: number;
  /** Log one line per request (method, path without secrets, status, duration). */
  readonly accessLog?: boolean;
  /** Aborted when the server stops: requests waiting for news (GET /v1/events?wait=) answer at once. */
  readonly shutdown?: AbortSignal;
  /** Bytes the cache of rendered answers may hold (cache/response-cache.ts); 0 keeps none. Default 64 MiB. */
  readonly responseCacheBytes?: number;
  /**
   * Serve GET and HEAD of the router's single-handler routes through the short lane (pipeline/lane.ts). Default true; false
   * sends every request through Koa and the router (the tests compare the two).
   */
  readonly shortLane?: boolean;
  /** What /readyz waits for besides the store (default: nothing). */
  readonly startup?: StartupProgress;
  /** What a ready service's /readyz warns of (the heap near its limit); default: nothing. */
  readonly warnings?: () => readonly string[];
  /** UPLOAD_MAX_BYTES: an upload announced larger is refused before its body is read (default 25 MiB). */
  readonly uploadMaxBytes?: number;
  /** UPLOAD_CONCURRENCY: how many upload bodies are read at once; the others wait their turn (default 4). */
  readonly uploadConcurrency?: number;
  /**
   * REQUEST_TIMEOUT_S in ms: how long a request may take to arrive (the server's bound,
   * node/request-receipt.ts); here, how long an upload may wait for its turns in all (default 60 s).
   */
  readonly requestTimeoutMs?: number;
  /** UPLOAD_MIN_BYTES_PER_S: each this many bytes an upload receives earn it one more second (default 64 KiB). */
  readonly uploadMinBytesPerSecond?: number;
}

export interface ResolvedHttpOptions {
  readonly publicUrl: string;
  readonly trustProxy: boolean;
  readonly logger: HttpLogger;
  readonly versions: ApiVersions;
  readonly deprecations: DeprecationSchedule;
  readonly compressionThreshold: number;
  readonly accessLog: boolean;
  readonly shutdown: AbortSignal;
  readonly responseCacheBytes: number;
  readonly shortLane: boolean;
  readonly startup: StartupProgress;
  readonly warnings: () => readonly string[];
  readonly uploadMaxBytes: number;
  readonly uploadConcurrency: number;
  readonly requestTimeoutMs: number;
  readonly uploadMinBytesPerSecond: number;
}

export const resolveOptions = (o: HttpOptions): ResolvedHttpOptions => ({
  publicUrl: o.publicUrl.replace(/\/+$/, ''),
  trustProxy: o.trustProxy,
  logger: o.logger,
  versions: o.versions ?? apiVersions,
  deprecations: o.deprecations ?? defaultDeprecations,
  compressionThreshold: o.compressionThreshold ?? 1,
  accessLog: o.accessLog ?? true,
  shutdown: o.shutdown ?? new AbortController().signal,
  responseCacheBytes: o.responseCacheBytes ?? defaultResponseCacheBytes,
  shortLane: o.shortLane ?? true,
  startup: o.startup ?? started,
  warnings: o.warnings ?? (() => []),
  uploadMaxBytes: o.uploadMaxBytes ?? 26_214_400,
  uploadConcurrency: o.uploadConcurrency ?? defaultUploadConcurrency,
  requestTimeoutMs: o.requestTimeoutMs ?? defaultRequestTimeoutMs,
  uploadMinBytesPerSecond: o.uploadMinBytesPerSecond ?? defaultUploadMinBytesPerSecond,
});
