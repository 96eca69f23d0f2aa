import { closeSync, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { open } from 'lmdb';
import { blobsDir } from './blob-files.js';
import { copyBlobs } from './backup-blobs.js';
import { DataDirError, dataFiles } from './data-dir.js';
import { copyFileDurably, syncDir, writeFileDurably } from './durable-files.js';
import { makePrivateDir, makePrivateFile, privateFileMode } from './private-files.js';

const syncFile = (path: string): void => {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * Copies a data directory while its service runs: LMDB's own copy (mdb_env_copy) reads one
 * snapshot inside a read transaction, beside the service's writer, so the copy holds every
 * commit up to a moment and nothing after it. Then every blob file the copied records name
 * (contract §9): a file the service erased in between (its attachment deleted after the
 * snapshot) makes the copy start again, so the copy never names missing bytes. `alsoCopy` names
 * the directory's other files worth keeping (the TLS identity, the first admin's password).
 * Starting the service with DATA_DIR=<to> restores it.
 *
 * Durable before it answers: every file is synced, and the directory. An interrupted backup
 * (killed, power cut) leaves `backup-unfinished` in `to`, which a start refuses with one line,
 * so that nobody starts an empty or partial store believing it restored.
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
  makePrivateDir(to);
  syncDir(dirname(resolve(to)));
  const unfinished = join(to, dataFiles.unfinishedBackup);
  await writeFileDurably(unfinished, `a backup of ${from} was started here and did not finish\n`);
  const files: string[] = [];
  for (const name of alsoCopy) {
    if (!existsSync(join(from, name))) continue;
    copyFileDurably(join(from, name), join(to, name), privateFileMode);
    files.push(name);
  }
  const partial = join(to, `${dataFiles.store}.part`);
  for (let attempt = 1; ; attempt += 1) {
    const env = open({ path: store, readOnly: true });
    try {
      await env.backup(partial, false);
    } finally {
      await env.close();
    }
    makePrivateFile(partial);
    syncFile(partial);
    renameSync(partial, join(to, dataFiles.store));
    // The marker still stands: a start refuses the copy until its blobs are in too.
    const missing = await copyBlobs(from, to);
    if (missing === null) break;
    if (attempt === 3)
      throw new DataDirError(
        `the backup could not copy blob ${missing}: it was erased while copying, three times running; try again`,
      );
    rmSync(join(to, dataFiles.store), { force: true });
    rmSync(join(to, blobsDir), { recursive: true, force: true });
  }
  // Reading the copy's table of blobs made LMDB's lock file beside it: the service's alone too.
  const lock = join(to, `${dataFiles.store}-lock`);
  if (existsSync(lock)) makePrivateFile(lock);
  rmSync(unfinished);
  syncDir(to);
  return { files: [dataFiles.store, blobsDir, ...files] };
};
