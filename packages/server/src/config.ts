import { isLeft } from 'fp-ts/lib/Either.js';
import { codePointLength, Email } from '@support/domain';
import * as t from 'io-ts';

/** The service's settings (contract §1), decoded from the environment. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** null: https://localhost:<the port listened on>. */
  readonly publicUrl: string | null;
  readonly tlsCertFile: string | null;
  readonly tlsKeyFile: string | null;
  readonly httpPort: number | null;
  /** STORE: embedded (durable, in DATA_DIR; the default), memory (volatile) or mongo. */
  readonly store: StoreKind;
  /** DATA_DIR (default ./data): the embedded store's directory, its TLS certificate and the first admin's generated password. */
  readonly dataDir: string;
  readonly mongoUrl: string | null;
  /**
   * MONGO_SERVER_SELECTION_TIMEOUT_MS (default: the adapter's, 5000): how long a Mongo
   * operation waits for a reachable primary before the request answers 503.
   */
  readonly mongoServerSelectionTimeoutMs: number | null;
  /**
   * MONGO_OPERATION_TIMEOUT_MS (default: the adapter's, 10000): how long a Mongo operation
   * may wait for the server's answer once sent.
   */
  readonly mongoOperationTimeoutMs: number | null;
  /** MONGO_ALLOW_STANDALONE (default false): start on a standalone mongod read-only (it has no transactions, which every write of the feed's resources needs). */
  readonly mongoAllowStandalone: boolean;
  /**
   * MONGO_WITHOUT_TTL (default false): create no TTL index, for a MongoDB-wire server that has
   * none (FerretDB 1.x). Expired tokens, rate-limit windows and Idempotency-Keys are then never
   * deleted, only ignored (every lookup checks the expiry): answers are unchanged, space grows.
   */
  readonly mongoWithoutTtl: boolean;
  readonly adminEmail: string;
  readonly adminPassword: string | null;
  readonly rateLimit: number;
  readonly rateLimitWindowSeconds: number;
  readonly tokenTtlSeconds: number;
  /** REFRESH_TOKEN_TTL_S: how long a refresh token can be used (default 30 days). */
  readonly refreshTokenTtlSeconds: number;
  /** REFRESH_MAX_AGE_S: a refresh chain ends this long after its password grant (default 90 days; contract §11). */
  readonly refreshMaxAgeSeconds: number;
  /**
   * PASSWORD_HASH_QUEUE: password checks that may wait for a free hashing slot (default 64, about
   * 1.3 s of work on one core); one more is refused at once, 503 50304 (contract §11).
   */
  readonly passwordHashQueue: number;
  readonly trustProxy: boolean;
  /** EVENTS_RETENTION_DAYS: how long the change feed keeps events (default 30). */
  readonly eventsRetentionDays: number;
  /** EVENTS_MEMORY_BYTES (STORE=memory only): the feed's budget in (approximate) bytes, beyond which it forgets its oldest events (default 256 MiB). */
  readonly eventsMemoryBytes: number;
  /** UPLOAD_MAX_BYTES: the most bytes one upload may have (default 25 MiB). */
  readonly uploadMaxBytes: number;
  /** UPLOAD_TTL_S: how long an upload waits for a message to take it (default 86400). */
  readonly uploadTtlSeconds: number;
  /** UPLOAD_CONCURRENCY: how many upload bodies are read at once; the others wait their turn (default 4). */
  readonly uploadConcurrency: number;
  /**
   * REQUEST_TIMEOUT_S: how long a request may take to arrive after its header fields (default 60; 408);
   * also how long an upload may wait for its turns in all (503 50305).
   */
  readonly requestTimeoutSeconds: number;
  /** UPLOAD_MIN_BYTES_PER_S: each this many bytes an upload sends earn it one more second (default 65536). */
  readonly uploadMinBytesPerSecond: number;
  /** SCAN_CLAMD: the ClamAV daemon every upload is scanned by (host:port or a socket path); null: none. */
  readonly scanClamd: string | null;
  /** WEBHOOK_RETRY_S: seconds before each retry of a failed delivery (default 5,30,120,600,3600,21600); then the webhook is switched off. */
  readonly webhookRetrySeconds: readonly number[];
  /** WEBHOOK_ALLOW_PRIVATE: receivers on http:// and on loopback or private addresses (development and tests only). */
  readonly webhookAllowPrivate: boolean;
  /** CRASH_BEFORE_KEEPING: the Idempotency-Key whose request kills the process before its answer is kept (tests only: crash-hooks.ts). */
  readonly crashBeforeKeeping: string | null;
  /** RESPONSE_CACHE_BYTES: bytes of rendered answers kept between requests (0: none); absent, the HTTP adapter's default (64 MiB). */
  readonly responseCacheBytes?: number;
  /** LOG_LEVEL: the least severe log line written (default info). */
  readonly logLevel: LogLevel;
}

export const logLevels = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof logLevels)[number];

/** A bad setting: the message is one line naming the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const integerIn = (name: string, min: number, max: number) =>
  new t.Type<number, string, unknown>(
    name,
    (u): u is number => typeof u === 'number',
    (u, c) => {
      if (typeof u !== 'string' || !/^\d+$/.test(u.trim()))
        return t.failure(u, c, `must be a whole number from ${min} to ${max}`);
      const n = Number(u.trim());
      return n >= min && n <= max ? t.success(n) : t.failure(u, c, `must be a whole number from ${min} to ${max}`);
    },
    String,
  );

const boolean = new t.Type<boolean, string, unknown>(
  'boolean',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) => {
    const v = typeof u === 'string' ? u.trim().toLowerCase() : '';
    if (['true', '1', 'yes'].includes(v)) return t.success(true);
    if (['false', '0', 'no', ''].includes(v)) return t.success(false);
    return t.failure(u, c, 'must be true or false');
  },
  String,
);

const nonEmpty = new t.Type<string, string, unknown>(
  'text',
  (u): u is string => typeof u === 'string',
  (u, c) => (typeof u === 'string' && u.trim() !== '' ? t.success(u.trim()) : t.failure(u, c, 'must not be empty')),
  String,
);

export const storeKinds = ['embedded', 'memory', 'mongo'] as const;
export type StoreKind = (typeof storeKinds)[number];

const storeKind = new t.Type<StoreKind, string, unknown>(
  'store',
  (u): u is StoreKind => storeKinds.includes(u as StoreKind),
  (u, c) =>
    storeKinds.includes(u as StoreKind)
      ? t.success(u as StoreKind)
      : t.failure(u, c, 'must be "embedded", "memory" or "mongo"'),
  String,
);

const email = new t.Type<string, string, unknown>(
  'email',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    const decoded = Email.decode(typeof u === 'string' ? u.trim() : u);
    return isLeft(decoded) ? t.failure(u, c, 'must be an e-mail address') : t.success(decoded.right);
  },
  String,
);

const httpsOrigin = new t.Type<string, string, unknown>(
  'url',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, 'must be an https URL');
    try {
      const url = new URL(u.trim());
      // Emitted URLs lead clients back here: an http origin would send them to the 403 listener.
      if (url.protocol !== 'https:') return t.failure(u, c, 'must be an https URL (the API answers only over TLS)');
      if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
        return t.failure(u, c, 'must be an https origin with an optional path, without query, fragment or credentials');
      }
      return t.success(url.origin + url.pathname.replace(/\/+$/, ''));
    } catch {
      return t.failure(u, c, 'must be an https URL such as https://support.example.com');
    }
  },
  String,
);

const password = new t.Type<string, string, unknown>(
  'password',
  (u): u is string => typeof u === 'string',
  (u, c) =>
    typeof u === 'string' && codePointLength(u) >= 8 && codePointLength(u) <= 256
      ? t.success(u)
      : t.failure(u, c, 'must be 8 to 256 characters'),
  String,
);

const secondsList = new t.Type<readonly number[], string, unknown>(
  'seconds list',
  (u): u is readonly number[] => Array.isArray(u),
  (u, c) => {
    const items = typeof u === 'string' ? u.split(',').map((s) => s.trim()) : [];
    const ok =
      items.length >= 1 &&
      items.length <= 20 &&
      items.every((s) => /^\d+$/.test(s) && Number(s) >= 1 && Number(s) <= 604_800);
    return ok
      ? t.success(items.map(Number))
      : t.failure(u, c, 'must be a comma list of 1 to 20 whole numbers of seconds, each from 1 to 604800');
  },
  (a) => a.join(','),
);

const logLevel = new t.Type<LogLevel, string, unknown>(
  'log level',
  (u): u is LogLevel => logLevels.includes(u as LogLevel),
  (u, c) => {
    const v = typeof u === 'string' ? u.trim().toLowerCase() : '';
    return logLevels.includes(v as LogLevel)
      ? t.success(v as LogLevel)
      : t.failure(u, c, `must be one of ${logLevels.join(', ')}`);
  },
  String,
);

type Env = Readonly<Record<string, string | undefined>>;

const read = <A>(env: Env, name: string, codec: t.Type<A, string>): A | undefined => {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const result = codec.decode(raw);
  if (isLeft(result)) {
    const why = result.left[0]?.message ?? 'is not valid';
    throw new ConfigError(`${name} ${why} (got ${JSON.stringify(name.includes('PASSWORD') ? '***' : raw)})`);
  }
  return result.right;
};

/** Decodes the settings; throws ConfigError naming the first bad variable. */
export const configFromEnv = (env: Env): Config => {
  const port = read(env, 'PORT', integerIn('port', 0, 65535)) ?? 8443;
  const store = read(env, 'STORE', storeKind) ?? 'embedded';
  const mongoUrl = read(env, 'MONGO_URL', nonEmpty) ?? null;
  if (store === 'mongo' && mongoUrl === null) throw new ConfigError('MONGO_URL must be set when STORE=mongo');
  const tlsCertFile = read(env, 'TLS_CERT_FILE', nonEmpty) ?? null;
  const tlsKeyFile = read(env, 'TLS_KEY_FILE', nonEmpty) ?? null;
  if ((tlsCertFile === null) !== (tlsKeyFile === null)) {
    throw new ConfigError(
      `${tlsCertFile === null ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE'} must be set together with ${tlsCertFile === null ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'}`,
    );
  }
  const responseCacheBytes = read(env, 'RESPONSE_CACHE_BYTES', integerIn('bytes', 0, 2 ** 40));
  return {
    port,
    host: read(env, 'HOST', nonEmpty) ?? '127.0.0.1',
    publicUrl: read(env, 'PUBLIC_URL', httpsOrigin) ?? null,
    tlsCertFile,
    tlsKeyFile,
    httpPort: read(env, 'HTTP_PORT', integerIn('port', 0, 65535)) ?? null,
    store,
    dataDir: read(env, 'DATA_DIR', nonEmpty) ?? './data',
    mongoUrl,
    mongoServerSelectionTimeoutMs:
      read(env, 'MONGO_SERVER_SELECTION_TIMEOUT_MS', integerIn('milliseconds', 1, 600_000)) ?? null,
    mongoOperationTimeoutMs: read(env, 'MONGO_OPERATION_TIMEOUT_MS', integerIn('milliseconds', 1, 600_000)) ?? null,
    mongoAllowStandalone: read(env, 'MONGO_ALLOW_STANDALONE', boolean) ?? false,
    mongoWithoutTtl: read(env, 'MONGO_WITHOUT_TTL', boolean) ?? false,
    adminEmail: read(env, 'ADMIN_EMAIL', email) ?? 'admin@example.com',
    adminPassword: read(env, 'ADMIN_PASSWORD', password) ?? null,
    rateLimit: read(env, 'RATE_LIMIT', integerIn('limit', 1, 1_000_000_000)) ?? 5000,
    rateLimitWindowSeconds: read(env, 'RATE_LIMIT_WINDOW_S', integerIn('seconds', 1, 31_536_000)) ?? 3600,
    tokenTtlSeconds: read(env, 'TOKEN_TTL_S', integerIn('seconds', 1, 31_536_000)) ?? 86_400,
    refreshTokenTtlSeconds: read(env, 'REFRESH_TOKEN_TTL_S', integerIn('seconds', 1, 31_536_000)) ?? 2_592_000,
    refreshMaxAgeSeconds: read(env, 'REFRESH_MAX_AGE_S', integerIn('seconds', 1, 315_360_000)) ?? 7_776_000,
    passwordHashQueue: read(env, 'PASSWORD_HASH_QUEUE', integerIn('checks', 0, 100_000)) ?? 64,
    trustProxy: read(env, 'TRUST_PROXY', boolean) ?? false,
    eventsRetentionDays: read(env, 'EVENTS_RETENTION_DAYS', integerIn('days', 1, 3650)) ?? 30,
    eventsMemoryBytes: read(env, 'EVENTS_MEMORY_BYTES', integerIn('bytes', 1_048_576, 2 ** 40)) ?? 268_435_456,
    uploadMaxBytes: read(env, 'UPLOAD_MAX_BYTES', integerIn('bytes', 1, 2 ** 40)) ?? 26_214_400,
    uploadTtlSeconds: read(env, 'UPLOAD_TTL_S', integerIn('seconds', 1, 31_536_000)) ?? 86_400,
    uploadConcurrency: read(env, 'UPLOAD_CONCURRENCY', integerIn('uploads', 1, 1000)) ?? 4,
    requestTimeoutSeconds: read(env, 'REQUEST_TIMEOUT_S', integerIn('seconds', 1, 3600)) ?? 60,
    uploadMinBytesPerSecond: read(env, 'UPLOAD_MIN_BYTES_PER_S', integerIn('bytes', 1024, 1_073_741_824)) ?? 65_536,
    scanClamd: read(env, 'SCAN_CLAMD', nonEmpty) ?? null,
    webhookRetrySeconds: read(env, 'WEBHOOK_RETRY_S', secondsList) ?? [5, 30, 120, 600, 3600, 21600],
    webhookAllowPrivate: read(env, 'WEBHOOK_ALLOW_PRIVATE', boolean) ?? false,
    crashBeforeKeeping: read(env, 'CRASH_BEFORE_KEEPING', nonEmpty) ?? null,
    ...(responseCacheBytes === undefined ? {} : { responseCacheBytes }),
    logLevel: read(env, 'LOG_LEVEL', logLevel) ?? 'info',
  };
};
