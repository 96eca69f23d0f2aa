import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { migrateToFormat2 } from './migrate.js';

/**
 * The layout of the data this version writes; a directory written by a newer one is refused,
 * one written by an older one is brought up to it at open (migrate.ts).
 */
export const formatVersion = 2;

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
  /** Held with flock(2) while a process uses the directory (lock.ts). */
  lock: 'service.lock',
} as const;

/** A data directory that cannot be used: the start stops with this one line. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirError';
  }
}

/**
 * Opens (or creates) the LMDB environment, refusing one that cannot be used: a file cut short
 * (a torn copy), one LMDB cannot open, or one a newer version wrote.
 */
export const openEnvironment = (dir: string): RootDatabase => {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, dataFiles.store);
  const existed = existsSync(path);
  // LMDB maps the file and trusts its pages: a file cut short or not LMDB's would crash the process on open, not refuse it.
  if (existed) checkWhole(path, dir);
  let env: RootDatabase;
  try {
    // overlappingSync off: a commit's promise resolves once it is synced, and the next one starts after it.
    env = open({ path, overlappingSync: false, maxDbs: 32 });
  } catch (e) {
    throw new DataDirError(
      `DATA_DIR ${dir}: the store ${path} cannot be opened (${(e as Error).message}); restore it from a backup`,
    );
  }
  const meta = env.openDB<number, string>({ name: 'meta', ...tableOptions });
  const found = meta.get('format');
  if (found === undefined) {
    if (existed && hasData(env))
      throw new DataDirError(
        `DATA_DIR ${dir}: ${path} holds data but no format version; it was not written by this service`,
      );
    meta.putSync('format', formatVersion);
  } else if (found > formatVersion) {
    throw new DataDirError(
      `DATA_DIR ${dir} was written by a newer version of this service (data format ${String(found)}; this one reads up to ${String(formatVersion)})`,
    );
  } else if (found < 2) {
    migrateToFormat2(env, (name) => env.openDB({ name, ...tableOptions }));
  }
  return env;
};

const lmdbMagic = 0xbeefc0de;

/** LMDB's meta page (lmdb.h / mdb.c, MDB_meta): magic, version, address, map size, two MDB_db (48 bytes), last page, txn id. */
const readMeta = (
  file: Buffer,
  page: number,
  pageSize: number,
): { readonly lastPage: number; readonly txnId: number; readonly pageSize: number } | null => {
  const start = page * pageSize;
  for (let at = start; at <= start + 64 && at + 144 <= file.length; at += 4) {
    if (file.readUInt32LE(at) !== lmdbMagic) continue;
    const ownPageSize = file.readUInt32LE(at + 24);
    return {
      lastPage: Number(file.readBigUInt64LE(at + 120)),
      txnId: Number(file.readBigUInt64LE(at + 128)),
      pageSize: ownPageSize,
    };
  }
  return null;
};

/**
 * LMDB reads its pages straight from the mapped file: a file shorter than its newest meta page
 * says (a torn copy) or one that is not LMDB's would crash the process (SIGBUS, SIGSEGV)
 * instead of being refused, so both are checked on the file before LMDB opens it.
 */
const checkWhole = (path: string, dir: string): void => {
  const fd = openSync(path, 'r');
  const head = Buffer.alloc(2 * 65536);
  let read: number;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const file = head.subarray(0, read);
  const first = readMeta(file, 0, 4096);
  const second = first === null ? null : readMeta(file, 1, first.pageSize);
  const newest = [first, second].filter((m) => m !== null).sort((a, b) => b.txnId - a.txnId)[0];
  if (newest === undefined || newest.pageSize < 512 || newest.pageSize > 65536) {
    throw new DataDirError(
      `DATA_DIR ${dir}: the store ${path} cannot be opened (it is not an LMDB store); restore it from a backup`,
    );
  }
  const needed = (newest.lastPage + 1) * newest.pageSize;
  const size = statSync(path).size;
  if (size < needed) {
    throw new DataDirError(
      `DATA_DIR ${dir}: ${path} is cut short (${String(size)} bytes of at least ${String(needed)}): a torn copy; restore it from a backup`,
    );
  }
};

/** Whether any table that every store writes first holds a record (the root itself lists the tables). */
const hasData = (env: RootDatabase): boolean =>
  ['users', 'events'].some((name) => env.openDB({ name, ...tableOptions }).getKeysCount({ limit: 1 }) > 0);
