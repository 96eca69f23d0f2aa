import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { DataDirError, dataFiles } from './data-dir.js';

/**
 * Copies a data directory while its service runs: LMDB's own copy (mdb_env_copy) reads one
 * snapshot inside a read transaction, beside the service's writer, so the copy holds every
 * commit up to a moment and nothing after it. `alsoCopy` names the directory's other files
 * worth keeping (the TLS identity). Starting the service with DATA_DIR=<to> restores it.
 */
export const backupDataDir = async (
  from: string,
  to: string,
  alsoCopy: readonly string[] = [],
): Promise<{ readonly files: readonly string[] }> => {
  const store = join(from, dataFiles.store);
  if (!existsSync(store)) throw new DataDirError(`DATA_DIR ${from} holds no store (${store} is missing)`);
  if (existsSync(to) && readdirSync(to).length > 0)
    throw new DataDirError(`the backup directory ${to} is not empty: give a new or empty one`);
  mkdirSync(to, { recursive: true });
  const env = open({ path: store, readOnly: true });
  try {
    await env.backup(join(to, dataFiles.store), false);
  } finally {
    await env.close();
  }
  const files: string[] = [dataFiles.store];
  for (const name of alsoCopy) {
    if (!existsSync(join(from, name))) continue;
    copyFileSync(join(from, name), join(to, name));
    files.push(name);
  }
  return { files };
};
