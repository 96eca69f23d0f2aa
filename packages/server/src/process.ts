import { ConfigError, configFromEnv } from './config.js';
import { jsonLogger } from './logger.js';
import { startServer, type RunningServer } from './server.js';
import type { StopSignal, StopSignals } from './signals.js';

// The process: read the settings, start, print how to reach the service, stop on a signal
// (main.ts installs the signal handlers before this module loads).
const logger = jsonLogger();

const fail = (message: string): never => {
  process.stderr.write(`support-ticket-service: ${message}\n`);
  process.exit(1);
};

const dataLine = (server: RunningServer): string => {
  if (server.dataDir !== null) return `  data: kept in ${server.dataDir} (back it up while running: npx -y pnpm@10 backup <dir>)`;
  return server.storeKind === 'memory' ? '  data: in memory only (STORE=memory): everything is lost when the service stops' : '  data: in MongoDB (STORE=mongo)';
};

const banner = (server: RunningServer): string =>
  [
    '',
    `  Support ticket service listening on ${server.url} (public URL ${server.publicUrl})`,
    server.selfSigned ? `  self-signed TLS certificate, SHA-256 fingerprint ${server.fingerprint}` : `  TLS certificate SHA-256 fingerprint ${server.fingerprint}`,
    ...(server.httpPort === null ? [] : [`  plain HTTP on port ${server.httpPort} answers 403 (TLS required)`]),
    server.generatedAdminPassword === null
      ? `  admin: ${server.adminEmail}`
      : `  admin: ${server.adminEmail}  password: ${server.generatedAdminPassword}   (shown once${server.dataDir === null ? '' : `, also kept in ${server.dataDir}/initial-admin-password until changed`}; set ADMIN_PASSWORD to choose it)`,
    dataLine(server),
    `  docs: ${server.publicUrl}/docs`,
    ...server.storeWarnings.map((w) => `  WARNING: ${w}`),
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
  const early = signals.received();
  if (early !== null) {
    // Stopped while the modules loaded: nothing was opened yet.
    logger.info('stopped before start', { signal: early });
    process.exit(0);
  }
  let server: RunningServer;
  try {
    const config = configFromEnv(process.env);
    server = await startServer(config, {
      onFirstAdminCreated: (email, password) => {
        // The store was unreachable at start: the admin exists only now.
        const shown = password === null ? '' : `  password: ${password}   (shown once; set ADMIN_PASSWORD to choose it)`;
        process.stdout.write(`\n  admin created now that the store answers: ${email}${shown}\n\n`);
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
  process.stdout.write(`${banner(server)}\n`);
  logger.info('listening', { url: server.url, port: server.port, http_port: server.httpPort });
};
