import { isLmdbCommitRejection } from '@support/adapter-embedded';
import { ConfigError, configFromEnv, type Config } from './config.js';
import { developmentSwitches, settings } from './config-reference.js';
import { jsonLogger, type ServiceLogger } from './logger.js';
import { startServer, type RunningServer } from './server.js';
import type { StopSignal, StopSignals } from './signals.js';

// The process: read the settings, start, print how to reach the service, stop on a signal
// (main.ts installs the signal handlers before this module loads). Standard output carries
// JSON log lines only; the banner, for a person at a terminal (and the generated admin
// password, shown once), goes to standard error (docs/operations.md, "Logs").
let logger: ServiceLogger = jsonLogger();

const fail = (message: string): never => {
  process.stderr.write(`support-ticket-service: ${message}\n`);
  process.exit(1);
};

const dataLine = (server: RunningServer): string => {
  if (server.dataDir !== null)
    return `  data: kept in ${server.dataDir} (back it up while running: npx -y pnpm@10 backup <dir>)`;
  return server.storeKind === 'memory'
    ? '  data: in memory only (STORE=memory): everything is lost when the service stops'
    : '  data: in MongoDB (STORE=mongo)';
};

const shownOnce = (server: RunningServer): string =>
  server.dataDir === null
    ? '(shown once, here on stderr; set ADMIN_PASSWORD to choose it)'
    : `(shown once, here on stderr, and kept in ${server.dataDir}/initial-admin-password until changed; set ADMIN_PASSWORD to choose it)`;

const banner = (server: RunningServer, switches: readonly string[]): string =>
  [
    '',
    `  Support ticket service listening on ${server.url} (public URL ${server.publicUrl})`,
    server.selfSigned
      ? `  self-signed TLS certificate, SHA-256 fingerprint ${server.fingerprint}`
      : `  TLS certificate SHA-256 fingerprint ${server.fingerprint}`,
    ...(server.httpPort === null ? [] : [`  plain HTTP on port ${server.httpPort} answers 403 (TLS required)`]),
    server.generatedAdminPassword === null
      ? `  admin: ${server.adminEmail}`
      : `  admin: ${server.adminEmail}  password: ${server.generatedAdminPassword}   ${shownOnce(server)}`,
    dataLine(server),
    `  logs: JSON lines on stdout`,
    ...server.storeWarnings.map((w) => `  WARNING: ${w}`),
    ...(switches.length === 0 ? [] : [`  WARNING: development-only settings: ${switches.join(', ')}`]),
    `  docs: ${server.publicUrl}/docs`,
    '',
  ].join('\n');

/** Stops the server: in-flight requests finish, the store closes, exit 0. */
const stopper = (server: RunningServer): ((signal: StopSignal) => void) => {
  // A repeated signal while stopping (an impatient supervisor, a second Ctrl-C) must not cut
  // the in-flight requests short: the grace period already bounds how long stopping takes.
  let stopping = false;
  return (signal) => {
    if (stopping) {
      logger.info('already stopping', { signal });
      return;
    }
    stopping = true;
    logger.info('stopping', { signal });
    server
      .close()
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((e: unknown) => {
        logger.error('stop failed', { detail: e instanceof Error ? e.message : String(e) });
        process.exit(1);
      });
  };
};

export const runProcess = async (signals: StopSignals): Promise<void> => {
  // lmdb-js leaves rejections nobody awaits when a commit fails; the embedded store refuses that
  // commit itself and stops the process with its own line and exit 75 (fail-stop). Any other
  // unhandled rejection still ends the process as Node's default would.
  process.on('unhandledRejection', (reason) => {
    if (isLmdbCommitRejection(reason)) return;
    throw reason;
  });
  const early = signals.received();
  if (early !== null) {
    // Stopped while the modules loaded: nothing was opened yet.
    logger.info('stopped before start', { signal: early });
    process.exit(0);
  }
  let server: RunningServer;
  let config: Config;
  try {
    config = configFromEnv(process.env);
    logger = jsonLogger(undefined, config.logLevel);
    logger.debug('settings', {
      set: settings.map((v) => v.name).filter((name) => process.env[name] !== undefined),
      store: config.store,
    });
    server = await startServer(config, {
      onFirstAdminCreated: (email, password) => {
        // The store was unreachable at start: the admin exists only now.
        const shown =
          password === null
            ? ''
            : `  password: ${password}   (shown once, here on stderr; set ADMIN_PASSWORD to choose it)`;
        process.stderr.write(`\n  admin created now that the store answers: ${email}${shown}\n\n`);
      },
    });
  } catch (e) {
    if (e instanceof ConfigError) return fail(e.message);
    return fail(`could not start: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Tests only: START_PAUSE=before-banner holds here, listening, until a signal (docs/operations.md, "Stopping").
  if (process.env.START_PAUSE === 'before-banner') await signals.pauseUntilSignal('before-banner');
  const stop = stopper(server);
  signals.handleWith(stop);
  const during = signals.received();
  if (during !== null) {
    // Stopped while starting: close what was opened, without announcing a service that is going away.
    stop(during);
    return;
  }
  const switches = developmentSwitches(process.env);
  process.stderr.write(`${banner(server, switches)}\n`);
  logger.info('listening', {
    url: server.url,
    port: server.port,
    http_port: server.httpPort,
    public_url: server.publicUrl,
    fingerprint: server.fingerprint,
    self_signed: server.selfSigned,
    store: config.store,
    admin_email: server.adminEmail,
    ...(server.generatedAdminPassword === null
      ? {}
      : {
          admin_credentials:
            server.dataDir === null
              ? 'generated, printed once on stderr'
              : 'generated, printed once on stderr and kept in DATA_DIR/initial-admin-password until changed',
        }),
    ...(server.dataDir === null ? {} : { data_dir: server.dataDir }),
    docs: `${server.publicUrl}/docs`,
  });
  if (switches.length > 0) {
    logger.warn('development-only settings are on: do not run this in production', { settings: switches });
  }
};
