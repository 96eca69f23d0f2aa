import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { syncDir } from './durable-files.js';
import { DataDirError } from './data-dir-error.js';
import { checkWhole } from './integrity.js';
import { makePrivateDir, makePrivateFile } from './private-files.js';

export { DataDirError } from './data-dir-error.js';
import { open, type RootDatabase } from 'lmdb';
import { migrateToFormat2, migrateToFormat3 } from './migrate.js';

/**
 * The layout of the data this version writes; a directory written by a newer one is refused,
 * one written by an older one is brought up to it at open (migrate.ts).
 */
export const formatVersion = 3;

/**
 * How every table is opened: msgpack records whose structures are kept once per table (a
 * record that carries its own structure decodes three to four times slower, which is most of
 * a start's time), and buffers inside values copied out of LMDB's reused read buffer.
 */
export const tableOptions = { sharedStructuresKey: Symbol.for('structures'), copyBuffers: true } as const;

/** Files of a data directory. */
export const dataFiles = {
  store: 'store.lmdb',
  lmdbLock: 'store.lmdb-lock',
  owner: 'service.pid',
  /** Written first by a backup into its directory, removed last (backup.ts): a start refuses it. */
  unfinishedBackup: 'backup-unfinished',
  /** Held with flock(2) while a process uses the directory (lock.ts). */
  lock: 'service.lock',
} as const;

/** A backup killed part-way (backup.ts) is never started, nor a store made over it. */
const refuseUnfinishedBackup = (dir: string): void => {
  if (existsSync(join(dir, dataFiles.unfinishedBackup)))
    throw new DataDirError(
      `DATA_DIR ${dir} holds a backup that did not finish (${dataFiles.unfinishedBackup}): take the backup again from the service's DATA_DIR`,
    );
};

/**
 * Opens the LMDB environment (createStoreIfMissing made it), refusing one that cannot be used: a
 * file cut short that LMDB cannot read (a torn copy), one LMDB cannot open, or one a newer version wrote.
 */
export const openEnvironment = (dir: string): RootDatabase => {
  makePrivateDir(dir);
  const path = join(dir, dataFiles.store);
  const lockFile = `${path}-lock`;
  const lockExisted = existsSync(lockFile);
  const existed = existsSync(path);
  refuseUnfinishedBackup(dir);
  // LMDB maps the file and trusts its pages: a file cut short or not LMDB's would crash the process on open, not refuse it.
  if (!existed) throw new DataDirError(`DATA_DIR ${dir}: ${path} is missing`);
  checkWhole(path, dir);
  let env: RootDatabase;
  try {
    // overlappingSync off: a commit's promise resolves once it is synced, and the next one starts after it.
    env = open({ path, overlappingSync: false, maxDbs: 32 });
  } catch (e) {
    throw new DataDirError(
      `DATA_DIR ${dir}: the store ${path} cannot be opened (${(e as Error).message}); nothing was changed`,
    );
  }
  const meta = env.openDB<number, string>({ name: 'meta', ...tableOptions });
  const found = meta.get('format');
  // LMDB makes its lock file by the first read at the latest: made now, it is the service's alone.
  if (!lockExisted && existsSync(lockFile)) makePrivateFile(lockFile);
  if (found === undefined) {
    throw new DataDirError(
      hasData(env)
        ? `DATA_DIR ${dir}: ${path} holds data but no format version; it was not written by this service`
        : `DATA_DIR ${dir}: ${path} holds no format version; it was not made by this service (remove it if it holds nothing of yours)`,
    );
  } else if (found > formatVersion) {
    throw new DataDirError(
      `DATA_DIR ${dir} was written by a newer version of this service (data format ${String(found)}; this one reads up to ${String(formatVersion)})`,
    );
  } else if (found < formatVersion) {
    const table = (name: string) => env.openDB({ name, ...tableOptions });
    if (found < 2) migrateToFormat2(env, table);
    migrateToFormat3(env, table);
  }
  return env;
};

/**
 * Called before the store is opened (with the directory held). A new store is made whole under another name (`store.lmdb.new`, with its format number),
 * synced, and only then renamed into place: a first start killed or cut off at any moment
 * leaves no store (the next start makes it again), never a file that is not yet LMDB's.
 */
export const createStoreIfMissing = async (dir: string): Promise<void> => {
  makePrivateDir(dir);
  refuseUnfinishedBackup(dir);
  const path = join(dir, dataFiles.store);
  if (existsSync(path)) return;
  const fresh = `${path}.new`;
  for (const leftover of [fresh, `${fresh}-lock`]) rmSync(leftover, { force: true });
  const env = open({ path: fresh, overlappingSync: false, maxDbs: 32 });
  try {
    env.openDB<number, string>({ name: 'meta', ...tableOptions }).putSync('format', formatVersion);
  } finally {
    await env.close();
  }
  makePrivateFile(fresh);
  rmSync(`${fresh}-lock`, { force: true });
  renameSync(fresh, path);
  rmSync(`${fresh}-lock`, { force: true });
  syncDir(dirname(path));
};

/** Whether any table that every store writes first holds a record (the root itself lists the tables). */
const hasData = (env: RootDatabase): boolean =>
  ['users', 'events'].some((name) => env.openDB({ name, ...tableOptions }).getKeysCount({ limit: 1 }) > 0);
