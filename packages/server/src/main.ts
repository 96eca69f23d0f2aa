import { ConfigError, configFromEnv } from './config.js';
import { jsonLogger } from './logger.js';
import { startServer } from './server.js';

// The process: read the settings, start, print how to reach the service, stop on a signal.
const logger = jsonLogger();

const fail = (message: string): never => {
  process.stderr.write(`support-ticket-service: ${message}\n`);
  process.exit(1);
};

const main = async (): Promise<void> => {
  let server;
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
  const lines = [
    '',
    `  Support ticket service listening on ${server.url} (public URL ${server.publicUrl})`,
    server.selfSigned ? `  self-signed TLS certificate, SHA-256 fingerprint ${server.fingerprint}` : `  TLS certificate SHA-256 fingerprint ${server.fingerprint}`,
    ...(server.httpPort === null ? [] : [`  plain HTTP on port ${server.httpPort} answers 403 (TLS required)`]),
    server.generatedAdminPassword === null
      ? `  admin: ${server.adminEmail}`
      : `  admin: ${server.adminEmail}  password: ${server.generatedAdminPassword}   (shown once; set ADMIN_PASSWORD to choose it)`,
    `  docs: ${server.publicUrl}/docs`,
    ...server.storeWarnings.map((w) => `  WARNING: ${w}`),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  logger.info('listening', { url: server.url, port: server.port, http_port: server.httpPort });

  // A repeated signal while stopping (an impatient supervisor, a second Ctrl-C) must not cut
  // the in-flight requests short: the grace period already bounds how long stopping takes.
  let stopping = false;
  const stop = (signal: string): void => {
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
  process.on('SIGTERM', () => { stop('SIGTERM'); });
  process.on('SIGINT', () => { stop('SIGINT'); });
};

void main();
