import { expect } from 'chai';
import { ConfigError, configFromEnv } from '../../src/index.js';

/** The ConfigError configFromEnv throws for `env` (fails the test when it does not throw one). */
const errorFor = (env: Readonly<Record<string, string>>): ConfigError => {
  try {
    configFromEnv(env);
  } catch (e) {
    expect(e).to.be.instanceOf(ConfigError);
    return e as ConfigError;
  }
  expect.fail(`configFromEnv accepted ${JSON.stringify(env)}`);
};

describe('server: configuration from the environment (contract §1)', () => {
  it('uses the contract defaults when nothing is set', () => {
    expect(configFromEnv({})).to.deep.equal({
      port: 8443,
      host: '127.0.0.1',
      publicUrl: null,
      tlsCertFile: null,
      tlsKeyFile: null,
      httpPort: null,
      store: 'embedded',
      dataDir: './data',
      mongoUrl: null,
      mongoServerSelectionTimeoutMs: null,
      mongoOperationTimeoutMs: null,
      mongoAllowStandalone: false,
      mongoWithoutTtl: false,
      adminEmail: 'admin@example.com',
      adminPassword: null,
      rateLimit: 5000,
      rateLimitWindowSeconds: 3600,
      tokenTtlSeconds: 86_400,
      refreshTokenTtlSeconds: 2_592_000,
      refreshMaxAgeSeconds: 7_776_000,
      passwordHashQueue: 64,
      trustProxy: false,
      eventsRetentionDays: 30,
      eventsMemoryBytes: 268_435_456,
      uploadMaxBytes: 26_214_400,
      uploadTtlSeconds: 86_400,
      uploadConcurrency: 4,
      requestTimeoutSeconds: 60,
      uploadMinBytesPerSecond: 65_536,
      scanClamd: null,
      webhookRetrySeconds: [5, 30, 120, 600, 3600, 21600],
      webhookAllowPrivate: false,
      crashBeforeKeeping: null,
      logLevel: 'info',
    });
  });

  it('ignores variables it does not know', () => {
    expect(configFromEnv({ PATH: '/usr/bin', HOME: '/root', NODE_ENV: 'production' }).port).to.equal(8443);
  });

  it('reads every setting', () => {
    const config = configFromEnv({
      PORT: '0',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://support.example.com/',
      TLS_CERT_FILE: '/etc/tls/cert.pem',
      TLS_KEY_FILE: '/etc/tls/key.pem',
      HTTP_PORT: '8080',
      STORE: 'mongo',
      DATA_DIR: '/var/lib/support',
      MONGO_URL: 'mongodb://db.example.com:27017/support',
      MONGO_SERVER_SELECTION_TIMEOUT_MS: '250',
      MONGO_OPERATION_TIMEOUT_MS: '1500',
      MONGO_ALLOW_STANDALONE: 'true',
      ADMIN_EMAIL: 'root@example.com',
      ADMIN_PASSWORD: 'correct horse battery',
      RATE_LIMIT: '100',
      RATE_LIMIT_WINDOW_S: '60',
      TOKEN_TTL_S: '900',
      REFRESH_TOKEN_TTL_S: '7200',
      REFRESH_MAX_AGE_S: '86400',
      PASSWORD_HASH_QUEUE: '0',
      TRUST_PROXY: 'true',
      EVENTS_RETENTION_DAYS: '7',
      EVENTS_MEMORY_BYTES: '1048576',
      UPLOAD_MAX_BYTES: '2097152',
      UPLOAD_TTL_S: '600',
      UPLOAD_CONCURRENCY: '1',
      REQUEST_TIMEOUT_S: '5',
      UPLOAD_MIN_BYTES_PER_S: '1024',
      SCAN_CLAMD: '127.0.0.1:3310',
      WEBHOOK_RETRY_S: '1, 10,100',
      WEBHOOK_ALLOW_PRIVATE: 'yes',
      CRASH_BEFORE_KEEPING: 'crash-key',
      LOG_LEVEL: 'WARN',
      MONGO_WITHOUT_TTL: 'true',
    });
    expect(config).to.deep.equal({
      port: 0,
      host: '0.0.0.0',
      publicUrl: 'https://support.example.com',
      tlsCertFile: '/etc/tls/cert.pem',
      tlsKeyFile: '/etc/tls/key.pem',
      httpPort: 8080,
      store: 'mongo',
      dataDir: '/var/lib/support',
      mongoUrl: 'mongodb://db.example.com:27017/support',
      mongoServerSelectionTimeoutMs: 250,
      mongoOperationTimeoutMs: 1500,
      mongoAllowStandalone: true,
      mongoWithoutTtl: true,
      adminEmail: 'root@example.com',
      adminPassword: 'correct horse battery',
      rateLimit: 100,
      rateLimitWindowSeconds: 60,
      tokenTtlSeconds: 900,
      refreshTokenTtlSeconds: 7200,
      refreshMaxAgeSeconds: 86_400,
      passwordHashQueue: 0,
      trustProxy: true,
      eventsRetentionDays: 7,
      eventsMemoryBytes: 1_048_576,
      uploadMaxBytes: 2_097_152,
      uploadTtlSeconds: 600,
      uploadConcurrency: 1,
      requestTimeoutSeconds: 5,
      uploadMinBytesPerSecond: 1024,
      scanClamd: '127.0.0.1:3310',
      webhookRetrySeconds: [1, 10, 100],
      webhookAllowPrivate: true,
      crashBeforeKeeping: 'crash-key',
      logLevel: 'warn',
    });
  });

  it('reads LOG_LEVEL as debug, info, warn or error (any case), default info', () => {
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      expect(configFromEnv({ LOG_LEVEL: level }).logLevel).to.equal(level);
      expect(configFromEnv({ LOG_LEVEL: ` ${level.toUpperCase()} ` }).logLevel).to.equal(level);
    }
    expect(configFromEnv({}).logLevel).to.equal('info');
  });

  it('accepts the usual spellings of a boolean for TRUST_PROXY', () => {
    for (const v of ['true', 'TRUE', '1', 'yes'])
      expect(configFromEnv({ TRUST_PROXY: v }).trustProxy, v).to.equal(true);
    for (const v of ['false', 'False', '0', 'no', ''])
      expect(configFromEnv({ TRUST_PROXY: v }).trustProxy, v).to.equal(false);
  });

  it('accepts the port bounds 0 and 65535', () => {
    expect(configFromEnv({ PORT: '0' }).port).to.equal(0);
    expect(configFromEnv({ PORT: '65535', HTTP_PORT: '0' })).to.include({ port: 65535, httpPort: 0 });
  });

  const bad: readonly (readonly [string, Readonly<Record<string, string>>])[] = [
    ['PORT', { PORT: 'abc' }],
    ['DATA_DIR', { DATA_DIR: '  ' }],
    ['PORT', { PORT: '' }],
    ['PORT', { PORT: '-1' }],
    ['PORT', { PORT: '65536' }],
    ['PORT', { PORT: '80.5' }],
    ['PORT', { PORT: '0x50' }],
    ['HTTP_PORT', { HTTP_PORT: 'http' }],
    ['HTTP_PORT', { HTTP_PORT: '70000' }],
    ['HOST', { HOST: '   ' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'support.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://support.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'http://support.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://support.example.com/?x=1' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://support.example.com/#top' }],
    ['STORE', { STORE: 'redis' }],
    ['STORE', { STORE: 'Memory' }],
    ['MONGO_URL', { STORE: 'mongo' }],
    ['EVENTS_RETENTION_DAYS', { EVENTS_RETENTION_DAYS: '0' }],
    ['EVENTS_RETENTION_DAYS', { EVENTS_RETENTION_DAYS: 'forever' }],
    ['WEBHOOK_RETRY_S', { WEBHOOK_RETRY_S: '' }],
    ['WEBHOOK_RETRY_S', { WEBHOOK_RETRY_S: '5,,30' }],
    ['WEBHOOK_RETRY_S', { WEBHOOK_RETRY_S: '5,0' }],
    ['WEBHOOK_RETRY_S', { WEBHOOK_RETRY_S: '1.5' }],
    ['WEBHOOK_ALLOW_PRIVATE', { WEBHOOK_ALLOW_PRIVATE: 'maybe' }],
    ['MONGO_URL', { STORE: 'mongo', MONGO_URL: ' ' }],
    ['MONGO_SERVER_SELECTION_TIMEOUT_MS', { MONGO_SERVER_SELECTION_TIMEOUT_MS: 'soon' }],
    ['MONGO_SERVER_SELECTION_TIMEOUT_MS', { MONGO_SERVER_SELECTION_TIMEOUT_MS: '0' }],
    ['MONGO_OPERATION_TIMEOUT_MS', { MONGO_OPERATION_TIMEOUT_MS: '1e3' }],
    ['ADMIN_EMAIL', { ADMIN_EMAIL: 'x' }],
    ['ADMIN_EMAIL', { ADMIN_EMAIL: 'admin@' }],
    ['ADMIN_PASSWORD', { ADMIN_PASSWORD: 'short' }],
    ['ADMIN_PASSWORD', { ADMIN_PASSWORD: 'x'.repeat(257) }],
    ['RATE_LIMIT', { RATE_LIMIT: '0' }],
    ['RATE_LIMIT', { RATE_LIMIT: 'many' }],
    ['RATE_LIMIT_WINDOW_S', { RATE_LIMIT_WINDOW_S: '0' }],
    ['RATE_LIMIT_WINDOW_S', { RATE_LIMIT_WINDOW_S: '1h' }],
    ['TOKEN_TTL_S', { TOKEN_TTL_S: '0' }],
    ['TOKEN_TTL_S', { TOKEN_TTL_S: '-5' }],
    ['REFRESH_TOKEN_TTL_S', { REFRESH_TOKEN_TTL_S: '0' }],
    ['REFRESH_TOKEN_TTL_S', { REFRESH_TOKEN_TTL_S: '30d' }],
    ['REFRESH_TOKEN_TTL_S', { REFRESH_TOKEN_TTL_S: '31536001' }],
    ['REFRESH_MAX_AGE_S', { REFRESH_MAX_AGE_S: '0' }],
    ['REFRESH_MAX_AGE_S', { REFRESH_MAX_AGE_S: '315360001' }],
    ['PASSWORD_HASH_QUEUE', { PASSWORD_HASH_QUEUE: '-1' }],
    ['PASSWORD_HASH_QUEUE', { PASSWORD_HASH_QUEUE: '100001' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'maybe' }],
    ['UPLOAD_CONCURRENCY', { UPLOAD_CONCURRENCY: '0' }],
    ['UPLOAD_CONCURRENCY', { UPLOAD_CONCURRENCY: '1001' }],
    ['UPLOAD_CONCURRENCY', { UPLOAD_CONCURRENCY: 'unbounded' }],
    ['UPLOAD_CONCURRENCY', { UPLOAD_CONCURRENCY: '2.5' }],
    ['REQUEST_TIMEOUT_S', { REQUEST_TIMEOUT_S: '0' }],
    ['REQUEST_TIMEOUT_S', { REQUEST_TIMEOUT_S: '3601' }],
    ['UPLOAD_MIN_BYTES_PER_S', { UPLOAD_MIN_BYTES_PER_S: '1023' }],
    ['UPLOAD_MIN_BYTES_PER_S', { UPLOAD_MIN_BYTES_PER_S: '64k' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['LOG_LEVEL', { LOG_LEVEL: '' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'warning' }],
    ['TLS_KEY_FILE', { TLS_CERT_FILE: '/etc/tls/cert.pem' }],
    ['TLS_CERT_FILE', { TLS_KEY_FILE: '/etc/tls/key.pem' }],
    ['TLS_CERT_FILE', { TLS_CERT_FILE: '', TLS_KEY_FILE: '/etc/tls/key.pem' }],
  ];
  for (const [variable, env] of bad) {
    const shown = JSON.stringify(env);
    it(`rejects ${shown.length > 70 ? `${shown.slice(0, 60)}…` : shown} with a ConfigError naming ${variable}`, () => {
      const error = errorFor(env);
      expect(error.name).to.equal('ConfigError');
      expect(error.message).to.match(new RegExp(`^${variable}\\b`));
      expect(error.message, 'one line').not.to.include('\n');
    });
  }

  it('never repeats a rejected ADMIN_PASSWORD in the message', () => {
    const error = errorFor({ ADMIN_PASSWORD: 'seven7!' });
    expect(error.message).to.include('ADMIN_PASSWORD');
    expect(error.message).not.to.include('seven7!');
  });

  it('quotes the rejected value so the operator sees what was read', () => {
    expect(errorFor({ STORE: 'redis' }).message).to.include('"redis"');
    expect(errorFor({ PORT: 'abc' }).message).to.include('"abc"');
  });
});
