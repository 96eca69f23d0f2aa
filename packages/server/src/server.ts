import { maxHeaderBytes, serveRequests, type HttpLogger } from '@support/adapter-http-koa';
import { StoreUnavailableError, type Application, type Store } from '@support/application';
import { Email } from '@support/domain';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Container } from 'inversify';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { resolve } from 'node:path';
import { ConfigError, type Config, type StoreKind } from './config.js';
import { buildContainer, TYPES, type ServerStore } from './container.js';
import { forgetInitialPasswordWhenChanged, keepInitialPassword } from './initial-password.js';
import { closeGracefully, listen } from './listening.js';
import { generatedPassword } from './secrets.js';
import { tlsMaterial } from './tls.js';
import { startRetention, startWebhookWorker, sweepFiles } from './webhook-worker.js';

export interface StartOptions {
  /**
   * Replaces bindings before anything is resolved, by rebinding them: tests give a manual
   * clock, a cheap hasher, a prepared store or a quiet logger, e.g.
   * `rebind: (c) => { c.rebindSync(TYPES.Clock).toConstantValue(clock); }`.
   */
  readonly rebind?: (container: Container) => void;
  /** Milliseconds a delivery round waits for news before looking for retries that came due (default 250). */
  readonly webhookPollMs?: number;
  /** Milliseconds in-flight requests get at shutdown before their connections are cut. */
  readonly shutdownGraceMs?: number;
  /** Milliseconds between attempts to prepare the store and create the first admin while the store is unreachable (default 5000). */
  readonly adminRetryMs?: number;
  /**
   * Called when the first admin is created after the start (the store was unreachable then),
   * with the generated password when there is one: the caller shows it once (never in a log).
   */
  readonly onFirstAdminCreated?: (email: string, generatedPassword: string | null) => void;
}

export interface RunningServer {
  /** The HTTPS origin actually listened on, e.g. https://localhost:8443. */
  readonly url: string;
  readonly port: number;
  readonly publicUrl: string;
  /** The plain listener's port (it answers 403), when HTTP_PORT is set. */
  readonly httpPort: number | null;
  readonly fingerprint: string;
  readonly selfSigned: boolean;
  /** The certificate in PEM (clients of a self-signed server pin it). */
  readonly cert: string;
  readonly adminEmail: string;
  /** The first admin's generated password, when this start created that admin with one. */
  readonly generatedAdminPassword: string | null;
  /** What the store said at start that the operator must know (e.g. a standalone MongoDB). */
  readonly storeWarnings: readonly string[];
  readonly storeKind: StoreKind;
  /** Where the data lives: the embedded store's directory (absolute), or null for the other stores. */
  readonly dataDir: string | null;
  readonly store: Store;
  readonly app: Application;
  /** Stops accepting, lets in-flight requests finish, closes the store. */
  close(): Promise<void>;
}

/** Creates the first admin when the store has no user; retries while the store is unreachable. */
const bootstrapAdmin = async (
  app: Application,
  config: Config,
  logger: HttpLogger,
  options: StartOptions,
  done: () => void,
): Promise<{ password: string | null; stop: () => void }> => {
  const email = Email.decode(config.adminEmail);
  if (isLeft(email)) throw new ConfigError('ADMIN_EMAIL must be an e-mail address');
  const password = config.adminPassword ?? generatedPassword();
  const generated = config.adminPassword === null ? password : null;
  // With the embedded store, a generated password is also kept in DATA_DIR until the admin changes it.
  const keepIn = generated !== null && config.store === 'embedded' ? config.dataDir : null;
  const attempt = async (): Promise<boolean | 'unavailable'> => {
    try {
      return await app.setup.ensureFirstAdmin(
        email.right,
        password,
        keepIn === null ? undefined : () => keepInitialPassword(keepIn, password),
      );
    } catch {
      return 'unavailable';
    }
  };
  const first = await attempt();
  if (first !== 'unavailable') {
    done();
    if (first) logger.info('first admin created', { email: config.adminEmail });
    return { password: first ? generated : null, stop: () => undefined };
  }
  logger.error('store unavailable: the first admin will be created when it answers', { email: config.adminEmail });
  // One attempt at a time (an attempt may take longer than the pause between them).
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const again = (): void => {
    timer = setTimeout(() => {
      void attempt().then((r) => {
        if (r === 'unavailable') {
          if (!stopped) again();
          return;
        }
        done();
        if (!r) return;
        logger.info('first admin created', {
          email: config.adminEmail,
          password_source: generated === null ? 'ADMIN_PASSWORD' : 'generated',
        });
        // The generated password must reach the operator once, or nobody can log in.
        options.onFirstAdminCreated?.(config.adminEmail, generated);
      });
    }, options.adminRetryMs ?? 5_000);
    timer.unref();
  };
  again();
  return {
    password: null,
    stop: () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
};

/**
 * Prepares the store before the service listens (Mongo: topology, indexes, unfinished bulk
 * writes) and logs what the operator must know. A refusal stops the start (its message is
 * one line); an unreachable store does not: it prepares itself once it answers (requests
 * and /readyz answer 503 until then), and these attempts log a refusal when they meet one.
 */
const startStore = async (
  store: ServerStore,
  config: Config,
  logger: HttpLogger,
  retryMs: number,
  done: () => void,
): Promise<{ warnings: readonly string[]; stop: () => void }> => {
  if (store.start === undefined) {
    done();
    return { warnings: [], stop: () => undefined };
  }
  const start = store.start;
  const warn = (warnings: readonly string[]): void => {
    for (const warning of warnings) logger.error(`store warning: ${warning}`, { store: config.store });
  };
  try {
    const { warnings } = await start();
    done();
    warn(warnings);
    return { warnings, stop: () => undefined };
  } catch (e) {
    if (!(e instanceof StoreUnavailableError)) throw e;
  }
  logger.error('store unavailable at start: it will be prepared (indexes, unfinished writes) when it answers', {
    store: config.store,
  });
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const again = (): void => {
    timer = setTimeout(() => {
      start().then(
        ({ warnings }) => {
          done();
          logger.info('store ready', { store: config.store });
          warn(warnings);
        },
        (e: unknown) => {
          if (!(e instanceof StoreUnavailableError))
            logger.error(`store refused: ${e instanceof Error ? e.message : String(e)}`, { store: config.store });
          if (!stopped) again();
        },
      );
    }, retryMs);
    timer.unref();
  };
  again();
  return {
    warnings: [],
    stop: () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
};

/** Starts the service as configured: the composition root's only entry point. */
export const startServer = async (config: Config, options: StartOptions = {}): Promise<RunningServer> => {
  const container = buildContainer(config);
  options.rebind?.(container);
  const logger = container.get(TYPES.Logger);
  const tls = await tlsMaterial(
    config.tlsCertFile,
    config.tlsKeyFile,
    config.store === 'embedded' ? config.dataDir : null,
  );
  const store = container.get(TYPES.Store);
  const app = container.get(TYPES.Application);
  // Every step /readyz waits for joins before the server listens.
  const steps = container.get(TYPES.Startup);
  const storePrepared = steps.begin('store preparation');
  const adminCreated = steps.begin('first admin');

  const storeStart = await startStore(store, config, logger, options.adminRetryMs ?? 5_000, storePrepared);

  const https = createHttpsServer({ cert: tls.cert, key: tls.key, maxHeaderSize: maxHeaderBytes });
  const plain = config.httpPort === null ? null : createHttpServer({ maxHeaderSize: maxHeaderBytes });
  const port = await listen(https, config.port, config.host, 'PORT');
  const httpPort =
    plain === null || config.httpPort === null ? null : await listen(plain, config.httpPort, config.host, 'HTTP_PORT');
  const publicUrl = config.publicUrl ?? `https://localhost:${port}`;
  container.get(TYPES.PublicOrigin).set(publicUrl);

  // Aborted first at shutdown: long-polls of the change feed answer at once.
  const stopping = new AbortController();
  const koa = container.get(TYPES.HttpApp)(publicUrl, stopping.signal);
  const handler = koa.callback();
  for (const s of plain === null ? [https] : [https, plain])
    serveRequests(s, handler, logger, config.requestTimeoutSeconds * 1000);

  const admin = await bootstrapAdmin(app, config, logger, options, adminCreated);
  const stopWatchingPassword =
    config.store === 'embedded'
      ? forgetInitialPasswordWhenChanged(
          config.dataDir,
          config.adminEmail,
          store,
          container.get(TYPES.PasswordHasher),
          {
            removed: () => {
              logger.info('the first admin changed the generated password: its file in DATA_DIR is removed', {
                data_dir: config.dataDir,
              });
            },
            failed: (e) => {
              logger.error('could not check the kept first admin password', {
                detail: e instanceof Error ? e.message : String(e),
              });
            },
          },
        )
      : () => undefined;
  const deliveries = startWebhookWorker(
    app.webhooks,
    {
      newest: async () => (await store.events.bounds()).newest,
      waitFor: (after, signal) => store.events.waitFor(after, signal),
    },
    logger,
    options.webhookPollMs ?? 250,
  );
  const retention = startRetention(() => app.events.forgetOld(), logger);
  // Expired uploads and bytes no record names (contract §9), at start and every minute.
  const sweep = startRetention(() => sweepFiles(app, logger), logger, 60_000, 'uploads not swept this time');
  let closing: Promise<void> | null = null;
  return {
    url: `https://localhost:${port}`,
    port,
    publicUrl,
    httpPort,
    fingerprint: tls.fingerprint,
    selfSigned: tls.selfSigned,
    cert: tls.cert,
    adminEmail: config.adminEmail,
    generatedAdminPassword: admin.password,
    storeWarnings: storeStart.warnings,
    storeKind: config.store,
    dataDir: config.store === 'embedded' ? resolve(config.dataDir) : null,
    store,
    app,
    close: () => {
      closing ??= (async () => {
        admin.stop();
        stopWatchingPassword();
        storeStart.stop();
        stopping.abort();
        retention.stop();
        sweep.stop();
        // In-flight deliveries end within their 10 s timeout; an attempt cut short is retried after a restart.
        await deliveries.stop();
        const grace = options.shutdownGraceMs ?? 10_000;
        await Promise.all([closeGracefully(https, grace), ...(plain === null ? [] : [closeGracefully(plain, grace)])]);
        await store.close?.();
      })();
      return closing;
    },
  };
};
