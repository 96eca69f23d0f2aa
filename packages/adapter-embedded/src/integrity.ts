import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DataDirError } from './data-dir-error.js';

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
export const checkWhole = (path: string, dir: string): void => {
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
      `DATA_DIR ${dir}: the store ${path} cannot be opened (it is not an LMDB store): it was not written by this service, or was overwritten; nothing was changed`,
    );
  }
  const needed = (newest.lastPage + 1) * newest.pageSize;
  const size = statSync(path).size;
  // LMDB never reads free pages: a file whose free tail was never written (or was cut off) is healthy.
  if (size < needed) {
    const unreadable = readsWhole(path);
    if (unreadable !== null)
      throw new DataDirError(
        `DATA_DIR ${dir}: ${path} ends at ${String(size)} bytes but its pages reach ${String(needed)}, and LMDB cannot read it (${unreadable}): a copy torn while the service wrote, or a file cut short. Nothing was changed. Copy it again from where it came from with that service stopped (or take it with npx -y pnpm@10 backup); only if that is gone, restore your newest backup (writes made after it are not in it)`,
      );
  }
};

/**
 * Reads every table of the store whole in a child process (LMDB would take this process down
 * with SIGBUS on a page beyond the end of the file): null when all of it reads, else what went wrong.
 */
const readsWhole = (path: string): string | null => {
  const lmdb = createRequire(import.meta.url).resolve('lmdb');
  const script = `
    const { open } = require(${JSON.stringify(lmdb)});
    const env = open({ path: ${JSON.stringify(path)}, readOnly: true, maxDbs: 64 });
    // The names first: opening a table while the root's cursor is open crashes lmdb-js.
    const names = [...env.getKeys({})].filter((name) => typeof name === 'string');
    for (const name of names) {
      const db = env.openDB({ name, sharedStructuresKey: Symbol.for('structures'), copyBuffers: true });
      for (const entry of db.getRange({})) void entry.value;
    }`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status === 0) return null;
  if (run.signal !== null) return `reading it ended with ${run.signal}`;
  return (
    run.stderr.split('\n').find((l) => /Error/.test(l)) ?? `reading it failed (exit ${String(run.status)})`
  ).trim();
};
