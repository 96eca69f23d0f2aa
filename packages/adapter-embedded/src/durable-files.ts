import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Syncs a directory, so that the names created or renamed in it survive a power cut. */
export const syncDir = (dir: string): void => {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/** Writes and syncs a file under a temporary name, syncs it, then renames it into place and syncs its directory. */
const writeSynced = (path: string, data: string | Buffer, mode: number): void => {
  const part = `${path}.part`;
  const fd = openSync(part, 'w', mode);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(part, path);
  syncDir(dirname(path));
};

/**
 * Writes a file of the data directory whole or not at all, and durably: a crash or a power
 * cut leaves the old file or the new one, never an empty or half one (the TLS key and
 * certificate, the first admin's password, a backup's side files).
 */
export const writeFileDurably = (path: string, data: string | Buffer, mode = 0o600): Promise<void> => {
  writeSynced(path, data, mode);
  return Promise.resolve();
};

/** Copies a file durably (writeFileDurably), keeping the source's mode bits. */
export const copyFileDurably = (from: string, to: string, mode: number): void => {
  writeSynced(to, readFileSync(from), mode);
};
