import { constants } from 'node:fs';
import { copyFile, open as openFile } from 'node:fs/promises';
import { join } from 'node:path';
import { open } from 'lmdb';
import { blobsDir } from './blob-files.js';
import { dataFiles, tableOptions } from './data-dir.js';
import { makePrivateDir, makePrivateFile } from './private-files.js';

const syncPath = async (path: string, flags: string): Promise<void> => {
  const fh = await openFile(path, flags);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
};

/** The blob keys the records of the store at `dir` name (uploads, and attachments not deleted). */
const namedBlobs = (dir: string): Set<string> => {
  const env = open({ path: join(dir, dataFiles.store), readOnly: true });
  try {
    const table = env.openDB({ name: 'attachments', ...tableOptions });
    const keys = new Set<string>();
    for (const { value } of table.getRange({})) {
      const a = value as { readonly blobKey: string; readonly deletedAt: number | null };
      if (a.deletedAt === null) keys.add(a.blobKey);
    }
    return keys;
  } finally {
    void env.close();
  }
};

/**
 * Copies into `to`/blobs every blob file the store copied into `to` names, each synced, mode
 * 0600. Answers the key of a file that is gone from `from` (erased since the store's snapshot),
 * or null when every one was copied.
 */
export const copyBlobs = async (from: string, to: string): Promise<string | null> => {
  const target = join(to, blobsDir);
  makePrivateDir(target);
  for (const key of namedBlobs(to)) {
    const copy = join(target, key);
    try {
      await copyFile(join(from, blobsDir, key), copy, constants.COPYFILE_FICLONE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return key;
      throw e;
    }
    makePrivateFile(copy);
    await syncPath(copy, 'r+');
  }
  await syncPath(target, 'r');
  return null;
};
