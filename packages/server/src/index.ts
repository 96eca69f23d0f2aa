export { configFromEnv, ConfigError, type Config } from './config.js';
export { startServer, type RunningServer, type StartOptions } from './server.js';
export { buildContainer, TYPES, type HttpAppFor, type ServerStore } from './container.js';
export { argon2Hasher, semaphore, defaultArgon2, type Argon2Settings } from './passwords.js';
export { cryptoTokens, systemClock } from './secrets.js';
export { jsonLogger } from './logger.js';
export { batchedLines, type LineSink } from './stdout-lines.js';
export { selfSignedTls } from './tls.js';
