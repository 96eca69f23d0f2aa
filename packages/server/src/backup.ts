import { backupDataDir } from '@support/adapter-embedded';
import { resolve } from 'node:path';
import { ConfigError, configFromEnv } from './config.js';
import { initialPasswordFile } from './initial-password.js';
import { keptTlsFiles } from './tls.js';

// `npx -y pnpm@10 backup <dir>`: a consistent copy of DATA_DIR, taken while the service runs
// (or not). Start the service with DATA_DIR=<dir> to restore it.
const fail = (message: string): never => {
  process.stderr.write(`support-ticket-service backup: ${message}\n`);
  process.exit(1);
};

const to = process.argv[2];
if (to === undefined || to.trim() === '' || process.argv.length > 3)
  fail('usage: npx -y pnpm@10 backup <new or empty directory>   (copies DATA_DIR, default ./data)');
try {
  const config = configFromEnv(process.env);
  const target = resolve(to ?? '');
  const { files } = await backupDataDir(config.dataDir, target, [
    keptTlsFiles.cert,
    keptTlsFiles.key,
    initialPasswordFile,
  ]);
  process.stdout.write(
    `backed up ${resolve(config.dataDir)} to ${target} (${files.join(', ')}); restore: start the service with DATA_DIR=${target}\n`,
  );
} catch (e) {
  fail(e instanceof ConfigError ? e.message : e instanceof Error ? e.message : String(e));
}
