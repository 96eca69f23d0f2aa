import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
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
  lock: 'store.lmdb-lock',
  owner: 'service.pid',
} as const;

/** A data directory that cannot be used: the start stops with this one line. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirError';
  }
}

/** The data directories this process holds (a pid file naming this process may be a stale one from a container's earlier run). */
const heldHere = new Set<string>();

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Makes this process the data directory's only user (LMDB itself lets several processes in,
 * but the memory store in front of it is one process's). A file left by a process that is
 * gone (killed, power cut) is taken over. Answers the release.
 */
export const takeOwnership = (dir: string): (() => void) => {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, dataFiles.owner);
  const real = realpathSync(dir);
  if (heldHere.has(real)) throw new DataDirError(`DATA_DIR ${dir} is in use by this process already (${path})`);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }) + '\n');
      closeSync(fd);
      heldHere.add(real);
      return () => {
        heldHere.delete(real);
        rmSync(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new DataDirError(`DATA_DIR ${dir} cannot be used: ${(e as Error).message}`);
    }
    let holder: { pid?: unknown } = {};
    try {
      holder = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    } catch {
      // Torn or empty (the holder died while writing it): nobody holds it.
    }
    if (typeof holder.pid === 'number' && holder.pid !== process.pid && isAlive(holder.pid)) {
      throw new DataDirError(
        `DATA_DIR ${dir} is in use by process ${String(holder.pid)} (${path}); stop it first, or give this process another DATA_DIR`,
      );
    }
    rmSync(path, { force: true });
  }
  throw new DataDirError(`DATA_DIR ${dir} could not be taken over (${path} keeps coming back)`);
};

/**
 * Opens (or creates) the LMDB environment, refusing one that cannot be used: a file cut short
 * (a torn copy), one LMDB cannot open, or one a newer version wrote. `reopening` (the store
 * was open a moment ago): the file must be there.
 */
export const openEnvironment = (dir: string, reopening = false): RootDatabase => {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, dataFiles.store);
  const existed = existsSync(path);
  // Memory holds what the file held: a new empty file under it would lose every write before it at the next start.
  if (reopening && !existed) throw new DataDirError(`DATA_DIR ${dir}: ${path} is gone while the service runs`);
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
