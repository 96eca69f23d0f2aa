// Every environment variable the service reads, one line each: the one home of the
// configuration reference. `main.js --help` prints it and docs/configuration.md holds it as a
// table (scripts/config-reference.mjs writes it); test/server/config-reference.test.ts fails
// when the decoder (config.ts) reads a variable that has no line here, when a line names a
// variable nothing reads, or when the document's table is not this list.

export interface Setting {
  readonly name: string;
  /** The value used when the variable is not set, as a user would write it, or what happens then. */
  readonly default: string;
  readonly allowed: string;
  readonly does: string;
  /** The stores it applies to. */
  readonly store: 'all' | 'mongo' | 'embedded' | 'memory';
  /** For development and tests only: a start with it set to anything but its default prints one warning line. */
  readonly developmentOnly?: true;
}

export const settings: readonly Setting[] = [
  { name: 'PORT', default: '8443', allowed: '0-65535 (0: any free port)', does: 'the HTTPS port', store: 'all' },
  {
    name: 'HOST',
    default: '127.0.0.1',
    allowed: 'a host name or IP address',
    does: 'the address to listen on (0.0.0.0: every interface)',
    store: 'all',
  },
  {
    name: 'PUBLIC_URL',
    default: 'https://localhost:<port>',
    allowed: 'an https origin with an optional path',
    does: 'the base of every URL the API writes (Location, Link, url fields); set it behind a proxy',
    store: 'all',
  },
  {
    name: 'TLS_CERT_FILE',
    default:
      'none: a self-signed certificate for localhost with an ECDSA P-256 key is made (kept in DATA_DIR with the embedded store, else made anew each start)',
    allowed: 'a PEM file, with TLS_KEY_FILE',
    does: 'the TLS certificate (chain)',
    store: 'all',
  },
  {
    name: 'TLS_KEY_FILE',
    default: 'none',
    allowed: 'a PEM file, with TLS_CERT_FILE',
    does: 'the TLS private key',
    store: 'all',
  },
  {
    name: 'HTTP_PORT',
    default: 'none: no plain listener',
    allowed: '0-65535',
    does: 'a plain-HTTP port that answers every request 403 (TLS required)',
    store: 'all',
  },
  {
    name: 'STORE',
    default: 'embedded',
    allowed: 'embedded, memory, mongo',
    does: 'where data lives: embedded is durable on this machine (in DATA_DIR), memory is volatile (a restart starts empty), mongo is MongoDB',
    store: 'all',
  },
  {
    name: 'DATA_DIR',
    default: './data',
    allowed: 'a directory (created when missing)',
    does: "the embedded store's directory, with the generated TLS certificate and the first admin's generated password; one process at a time",
    store: 'embedded',
  },
  {
    name: 'MONGO_URL',
    default: 'none: required with STORE=mongo',
    allowed: 'a MongoDB connection string',
    does: 'the replica set and database (the URL path names it; support when none)',
    store: 'mongo',
  },
  {
    name: 'MONGO_SERVER_SELECTION_TIMEOUT_MS',
    default: '5000',
    allowed: '1-600000',
    does: 'how long an operation waits for a reachable primary before the request answers 503',
    store: 'mongo',
  },
  {
    name: 'MONGO_OPERATION_TIMEOUT_MS',
    default: '10000',
    allowed: '1-600000',
    does: "how long an operation waits for the server's answer once sent",
    store: 'mongo',
  },
  {
    name: 'MONGO_ALLOW_STANDALONE',
    default: 'false',
    allowed: 'true, false',
    does: 'start on a standalone mongod read-only (no transactions: every write of a ticket, message, user or group is refused)',
    store: 'mongo',
    developmentOnly: true,
  },
  {
    name: 'MONGO_WITHOUT_TTL',
    default: 'false',
    allowed: 'true, false',
    does: 'create no TTL index, for a MongoDB-wire server without them (FerretDB): expired tokens, rate-limit windows and Idempotency-Keys are then ignored, never deleted (space grows)',
    store: 'mongo',
    developmentOnly: true,
  },
  {
    name: 'ADMIN_EMAIL',
    default: 'admin@example.com',
    allowed: 'an e-mail address',
    does: 'the first admin, created at start when the store has no admin',
    store: 'all',
  },
  {
    name: 'ADMIN_PASSWORD',
    default: 'none: generated, shown once on stderr',
    allowed: '8-256 characters',
    does: "the first admin's password (never echoed, not even in an error)",
    store: 'all',
  },
  {
    name: 'RATE_LIMIT',
    default: '5000',
    allowed: '1-1000000000',
    does: 'requests per window per user (a tenth of it per client IP for calls without a user)',
    store: 'all',
  },
  {
    name: 'RATE_LIMIT_WINDOW_S',
    default: '3600',
    allowed: '1-31536000',
    does: 'the rate-limit window, in seconds',
    store: 'all',
  },
  {
    name: 'TOKEN_TTL_S',
    default: '86400',
    allowed: '1-31536000',
    does: 'the access-token lifetime, in seconds',
    store: 'all',
  },
  {
    name: 'REFRESH_TOKEN_TTL_S',
    default: '2592000',
    allowed: '1-31536000',
    does: 'the refresh-token lifetime, in seconds (30 days)',
    store: 'all',
  },
  {
    name: 'REFRESH_MAX_AGE_S',
    default: '7776000',
    allowed: '1-315360000',
    does: 'how long after its password grant a login can still be refreshed, however often it was: then the password is needed again (90 days)',
    store: 'all',
  },
  {
    name: 'PASSWORD_HASH_QUEUE',
    default: '64',
    allowed: '0-100000',
    does: 'password checks (logins, password changes) that may wait while two are hashed at once; one more is answered 503 (50304) with Retry-After at once, so a login flood cannot build an unbounded wait',
    store: 'all',
  },
  {
    name: 'TRUST_PROXY',
    default: 'false',
    allowed: 'true, false',
    does: "take the client's address and scheme from X-Forwarded-For and X-Forwarded-Proto",
    store: 'all',
  },
  {
    name: 'EVENTS_MEMORY_BYTES',
    default: '268435456',
    allowed: '1048576-1099511627776',
    does: "the memory store's change feed budget, in approximate bytes: beyond it the oldest events are forgotten (a cursor older than the oldest kept answers 410)",
    store: 'memory',
  },
  {
    name: 'EVENTS_RETENTION_DAYS',
    default: '30',
    allowed: '1-3650',
    does: 'days the change feed keeps events (older ones are forgotten at start and hourly; an older cursor answers 410)',
    store: 'all',
  },
  {
    name: 'UPLOAD_MAX_BYTES',
    default: '26214400',
    allowed: '1-1099511627776',
    does: 'the most bytes one upload (POST /v1/uploads) may have: more is 413, refused as soon as the bytes pass it',
    store: 'all',
  },
  {
    name: 'UPLOAD_TTL_S',
    default: '86400',
    allowed: '1-31536000',
    does: 'seconds an upload waits for a message to take it (attachment_ids); then it and its bytes are deleted',
    store: 'all',
  },
  {
    name: 'UPLOAD_CONCURRENCY',
    default: '4',
    allowed: '1-1000',
    does: 'how many upload bodies (POST /v1/uploads) are read at once; the others wait their turn in arrival order, their bytes held back by TCP flow control (an upload whose client pauses 50 ms lets the next one in, and so does one that has received under 1 MiB/s for 1 s while others wait)',
    store: 'all',
  },
  {
    name: 'REQUEST_TIMEOUT_S',
    default: '60',
    allowed: '1-3600',
    does: 'seconds a request may take to arrive after its header fields, else 408 and the connection closes (a slow body cannot hold a connection); an upload waiting for its turn (UPLOAD_CONCURRENCY) is not counted, and may wait this long in all before 503 (50305) with Retry-After',
    store: 'all',
  },
  {
    name: 'UPLOAD_MIN_BYTES_PER_S',
    default: '65536',
    allowed: '1024-1073741824',
    does: 'the slowest an upload may be sent: each this many bytes received give it one more second past REQUEST_TIMEOUT_S (a 25 MiB file at 64 KiB/s: 460 s), so a slow link finishes and a trickle is cut off (408)',
    store: 'all',
  },
  {
    name: 'SCAN_CLAMD',
    default: 'none: uploads are not scanned',
    allowed: 'host:port, or the path of a Unix socket',
    does: 'a ClamAV daemon every upload is streamed to (INSTREAM) before it is kept: infected is 422, clamd unreachable 503',
    store: 'all',
  },
  {
    name: 'WEBHOOK_RETRY_S',
    default: '5,30,120,600,3600,21600',
    allowed: 'a comma list of 1-20 whole seconds, each 1-604800',
    does: 'the delays between delivery attempts; after the last the webhook is switched off',
    store: 'all',
  },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE',
    default: 'false',
    allowed: 'true, false',
    does: 'let webhooks call http:// and loopback or private addresses (a receiver on this machine)',
    store: 'all',
    developmentOnly: true,
  },
  {
    name: 'RESPONSE_CACHE_BYTES',
    default: '67108864 (64 MiB)',
    allowed: '0-1099511627776',
    does: 'memory for rendered answers kept between requests (0: none)',
    store: 'all',
  },
  {
    name: 'LOG_LEVEL',
    default: 'info',
    allowed: 'debug, info, warn, error',
    does: 'the least severe log line written to stdout (info: one line per request)',
    store: 'all',
  },
  {
    name: 'CRASH_BEFORE_KEEPING',
    default: 'none',
    allowed: 'an Idempotency-Key',
    does: 'tests only: the process kills itself (SIGKILL) when the request with this key has run, before its answer is kept',
    store: 'all',
    developmentOnly: true,
  },
  {
    name: 'START_PAUSE',
    default: 'none',
    allowed: 'before-load, before-banner',
    does: 'tests only: hold start-up at that point until a stop signal (read by main.ts and process.ts)',
    store: 'all',
    developmentOnly: true,
  },
];

/** The variables read outside the decoder (configFromEnv): the process entry's own. */
export const readByTheEntry: readonly string[] = ['START_PAUSE'];

/**
 * The development-only settings this environment sets to something other than their default:
 * `NAME=value` each, for the one warning line at start.
 */
export const developmentSwitches = (env: Readonly<Record<string, string | undefined>>): readonly string[] =>
  settings
    .filter((s) => s.developmentOnly === true)
    .flatMap((s) => {
      const raw = env[s.name]?.trim();
      if (
        raw === undefined ||
        raw === '' ||
        raw.toLowerCase() === s.default ||
        ['false', '0', 'no'].includes(raw.toLowerCase())
      )
        return [];
      return [`${s.name}=${raw}`];
    });
