import { createHttpApp, urlsFor, webhookBody, type HttpLogger } from '@support/adapter-http-koa';
import { createEmbeddedStore } from '@support/adapter-embedded';
import { httpWebhookSender } from '@support/adapter-webhook-sender';
import { clamdScanner } from './clamd-scanner.js';
import { createMemoryStore } from '@support/adapter-memory';
import { createMongoStore } from '@support/adapter-mongo';
import {
  createApplication,
  type Application,
  type Clock,
  type PasswordHasher,
  type Ports,
  type Store,
  type TokenGenerator,
  type WebhookSender,
  type MalwareScanner,
} from '@support/application';
import { Container, type BindToFluentSyntax, type ServiceIdentifier } from 'inversify';
import type { Config } from './config.js';
import { jsonLogger, type ServiceLogger } from './logger.js';
import { crashBeforeKeeping } from './crash-hooks.js';
import { argon2Hasher, defaultArgon2 } from './passwords.js';
import { cryptoTokens, systemClock } from './secrets.js';
import { startupSteps, type StartupSteps } from './startup.js';

/** A store the server can close at shutdown. */
export type ServerStore = Store & {
  readonly close?: () => Promise<void>;
  readonly start?: () => Promise<{ readonly warnings: readonly string[] }>;
  /** What /readyz should say an operator should know now (the embedded store: its heap near the limit). */
  readonly warnings?: () => readonly string[];
};

/**
 * The HTTP app for the origin it answers as. A function because that origin may be known
 * only once the port is listened on (PORT=0 without PUBLIC_URL).
 */
export type HttpAppFor = (publicUrl: string, shutdown: AbortSignal) => ReturnType<typeof createHttpApp>;

/** The public origin, set once the server listens (PORT=0 learns its port only then). */
export interface PublicOrigin {
  get(): string;
  set(url: string): void;
}

const publicOrigin = (): PublicOrigin => {
  let url: string | null = null;
  return {
    get: () => {
      if (url === null) throw new Error('the public origin is known only once the server listens');
      return url;
    },
    set: (u) => {
      url = u;
    },
  };
};

// Each identifier carries the type of what it is bound to: `bind` checks the value, `get`
// answers that type without a type argument, and a factory's parameters take their types
// from the identifiers listed for them (a wrong order does not compile).
const service = <T>(name: string): ServiceIdentifier<T> => Symbol(name);

export const TYPES = {
  Config: service<Config>('Config'),
  Logger: service<HttpLogger>('Logger'),
  Store: service<ServerStore>('Store'),
  Clock: service<Clock>('Clock'),
  PasswordHasher: service<PasswordHasher>('PasswordHasher'),
  TokenGenerator: service<TokenGenerator>('TokenGenerator'),
  PublicOrigin: service<PublicOrigin>('PublicOrigin'),
  WebhookSender: service<WebhookSender>('WebhookSender'),
  Scanner: service<MalwareScanner | null>('Scanner'),
  Ports: service<Ports>('Ports'),
  Application: service<Application>('Application'),
  HttpApp: service<HttpAppFor>('HttpApp'),
  /** The start-up steps /readyz waits for. */
  Startup: service<StartupSteps>('Startup'),
} as const;

/** The exit code of a fail-stop (EX_TEMPFAIL): a supervisor restarts the service, whose start loads what the disk holds. */
export const failStopExitCode = 75;

/**
 * The embedded store's failed commit (an I/O error, a full disk) stops the process, as
 * PostgreSQL and Redis do on a failed fsync: memory holds writes the disk may not, and only a
 * start reads back what the disk really holds (docs/embedded-store.md, "Faults"). The calls
 * refused meanwhile get their 503 during a short grace, then the process exits.
 */
const failStop = (logger: HttpLogger): void => {
  logger.error('stopping: the embedded store cannot write its data; restart the service once the disk is fixed', {
    exit_code: failStopExitCode,
  });
  setTimeout(() => process.exit(failStopExitCode), 200).unref();
};

const storeFor = (config: Config, logger: HttpLogger): ServerStore => {
  if (config.store === 'mongo') {
    return createMongoStore({
      url: config.mongoUrl ?? '',
      ...(config.mongoServerSelectionTimeoutMs === null
        ? {}
        : { serverSelectionTimeoutMS: config.mongoServerSelectionTimeoutMs }),
      ...(config.mongoOperationTimeoutMs === null ? {} : { operationTimeoutMS: config.mongoOperationTimeoutMs }),
      allowStandalone: config.mongoAllowStandalone,
      withoutTtlIndexes: config.mongoWithoutTtl,
    });
  }
  if (config.store === 'embedded') {
    return createEmbeddedStore({
      dataDir: config.dataDir,
      uploadsAtOnce: config.uploadConcurrency,
      log: (level, message, fields) => {
        // The service's logger has warn (jsonLogger); the HTTP adapter's view of it only info and error.
        const warn = (logger as Partial<Pick<ServiceLogger, 'warn'>>).warn?.bind(logger) ?? logger.error.bind(logger);
        (level === 'warn' ? warn : logger[level].bind(logger))(message, fields);
      },
      onFailure: () => {
        failStop(logger);
      },
    });
  }
  return createMemoryStore({ feedBytes: config.eventsMemoryBytes });
};

type Services = typeof TYPES;
type Service<K extends keyof Services> = Services[K] extends ServiceIdentifier<infer T> ? T : never;
/**
 * How each service is bound, one entry per identifier of TYPES: a service left without a
 * binding fails the build here, not the start (`No bindings found for service`).
 */
type Bindings = { readonly [K in keyof Services]: (to: BindToFluentSyntax<Service<K>>) => unknown };

const bindings = (config: Config): Bindings => ({
  Config: (to) => to.toConstantValue(config),
  Logger: (to) => to.toResolvedValue((cfg) => jsonLogger(undefined, cfg.logLevel), [TYPES.Config]).inSingletonScope(),
  Store: (to) =>
    to.toResolvedValue((cfg, logger) => storeFor(cfg, logger), [TYPES.Config, TYPES.Logger]).inSingletonScope(),
  Clock: (to) => to.toConstantValue(systemClock),
  PasswordHasher: (to) =>
    to
      .toResolvedValue((cfg) => argon2Hasher({ ...defaultArgon2, maxWaiting: cfg.passwordHashQueue }), [TYPES.Config])
      .inSingletonScope(),
  TokenGenerator: (to) => to.toConstantValue(cryptoTokens),
  PublicOrigin: (to) => to.toResolvedValue(() => publicOrigin()).inSingletonScope(),
  WebhookSender: (to) =>
    to
      .toResolvedValue(
        // Contract §7.4: a delivery succeeds on a 2xx within 10 s.
        (cfg, origin) =>
          httpWebhookSender({
            body: (event, fields) => webhookBody(urlsFor(origin.get()), event, fields),
            timeoutMs: 10_000,
            allowPrivate: cfg.webhookAllowPrivate,
          }),
        [TYPES.Config, TYPES.PublicOrigin],
      )
      .inSingletonScope(),
  Scanner: (to) =>
    to
      .toResolvedValue((cfg) => (cfg.scanClamd === null ? null : clamdScanner(cfg.scanClamd)), [TYPES.Config])
      .inSingletonScope(),
  Ports: (to) =>
    to
      .toResolvedValue(
        (store, clock, passwords, secrets, webhookSender, scanner): Ports => ({
          ...store,
          clock,
          passwords,
          secrets,
          webhookSender,
          scanner,
        }),
        [TYPES.Store, TYPES.Clock, TYPES.PasswordHasher, TYPES.TokenGenerator, TYPES.WebhookSender, TYPES.Scanner],
      )
      .inSingletonScope(),
  Application: (to) =>
    to
      .toResolvedValue(
        (ports, cfg) =>
          crashBeforeKeeping(
            createApplication(ports, {
              auth: {
                accessTokenTtlSeconds: cfg.tokenTtlSeconds,
                refreshTokenTtlSeconds: cfg.refreshTokenTtlSeconds,
                refreshMaxAgeSeconds: cfg.refreshMaxAgeSeconds,
              },
              rateLimit: { limit: cfg.rateLimit, windowSeconds: cfg.rateLimitWindowSeconds },
              // Contract §7.1: keys live 24 h. A claim is abandoned after a minute: no request runs that long
              // (every store call has a deadline of seconds), and a dead process blocks its keys no longer.
              idempotency: { retentionSeconds: 86_400, leaseSeconds: 60 },
              events: { retentionDays: cfg.eventsRetentionDays },
              // A lease outlasts an attempt (10 s) with room for the store writes around it.
              webhooks: { retrySeconds: cfg.webhookRetrySeconds, leaseSeconds: 30, batch: 16, keepLog: 100 },
              attachments: { maxBytes: cfg.uploadMaxBytes, ttlSeconds: cfg.uploadTtlSeconds },
            }),
            cfg.crashBeforeKeeping,
          ),
        [TYPES.Ports, TYPES.Config],
      )
      .inSingletonScope(),
  Startup: (to) => to.toResolvedValue(() => startupSteps()).inSingletonScope(),
  HttpApp: (to) =>
    to
      .toResolvedValue(
        (app, cfg, logger, startup, store): HttpAppFor =>
          (publicUrl, shutdown) =>
            createHttpApp(app, {
              publicUrl,
              trustProxy: cfg.trustProxy,
              logger,
              shutdown,
              startup,
              warnings: () => store.warnings?.() ?? [],
              ...(cfg.responseCacheBytes === undefined ? {} : { responseCacheBytes: cfg.responseCacheBytes }),
              uploadMaxBytes: cfg.uploadMaxBytes,
              uploadConcurrency: cfg.uploadConcurrency,
              requestTimeoutMs: cfg.requestTimeoutSeconds * 1000,
              uploadMinBytesPerSecond: cfg.uploadMinBytesPerSecond,
            }),
        [TYPES.Application, TYPES.Config, TYPES.Logger, TYPES.Startup, TYPES.Store],
      )
      .inSingletonScope(),
});

/** Binds TYPES[name] as its entry says (the identifier is the entry's own: no entry binds another's). */
const bindOne = <K extends keyof Services>(c: Container, name: K, binding: Bindings[K]): void => {
  binding(c.bind(TYPES[name] as ServiceIdentifier<Service<K>>));
};

/**
 * The one place where ports meet adapters: STORE picks the store adapter, and the store,
 * the application and the HTTP app read their settings from the Config binding. Tests
 * replace a binding with `container.rebindSync(TYPES.X)` before anything is resolved
 * (StartOptions.rebind).
 */
export const buildContainer = (config: Config): Container => {
  const c = new Container();
  const all = bindings(config);
  for (const name of Object.keys(TYPES) as (keyof Services)[]) bindOne(c, name, all[name]);
  return c;
};
