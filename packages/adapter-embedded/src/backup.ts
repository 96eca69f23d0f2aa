import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { blobsDir } from './blob-files.js';
import { copyBlobs } from './backup-blobs.js';
import { DataDirError, dataFiles } from './data-dir.js';

/**
 * Copies a data directory while its service runs: LMDB's own copy (mdb_env_copy) reads one
 * snapshot inside a read transaction, beside the service's writer, so the copy holds every
 * commit up to a moment and nothing after it. Then every blob file the copied records name
 * (contract §9): a file the service erased in between (its attachment deleted after the
 * snapshot) makes the copy start again, so the copy never names missing bytes. `alsoCopy` names
 * the directory's other files worth keeping (the TLS identity). Starting the service with
 * DATA_DIR=<to> restores it.
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
  for (let attempt = 1; ; attempt += 1) {
    mkdirSync(to, { recursive: true, mode: 0o700 });
    const env = open({ path: store, readOnly: true });
    try {
      await env.backup(join(to, dataFiles.store), false);
    } finally {
      await env.close();
    }
    const missing = await copyBlobs(from, to);
    if (missing === null) break;
    if (attempt === 3)
      throw new DataDirError(
        `the backup could not copy blob ${missing}: it was erased while copying, three times running; try again`,
      );
    for (const name of readdirSync(to)) rmSync(join(to, name), { recursive: true, force: true });
  }
  const files: string[] = [dataFiles.store, blobsDir];
  for (const name of alsoCopy) {
    if (!existsSync(join(from, name))) continue;
    copyFileSync(join(from, name), join(to, name));
    files.push(name);
  }
  return { files };
};
