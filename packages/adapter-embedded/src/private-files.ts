import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';

// Data at rest is the service's alone (contract §11): DATA_DIR holds password and token hashes,
// webhook secrets and kept answers. Whatever the service creates in it (the directory, the
// store and its lock, blobs, the certificate and key, the initial password, a backup) is made
// 0700 (directories) or 0600 (files), whatever the process's umask. What an operator set on a
// directory that already exists is left alone: a start that finds DATA_DIR open to others says so.

export const privateDirMode = 0o700;
export const privateFileMode = 0o600;

/** Makes `dir` (0700) when it is missing, parents included; an existing one is left as it is. */
export const makePrivateDir = (dir: string): void => {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: privateDirMode });
  // mkdir's mode passes through the umask, which only takes bits away: this makes it exact.
  chmodSync(dir, privateDirMode);
};

/** A file something else created (LMDB's store and lock, a copy): 0600. */
export const makePrivateFile = (path: string): void => {
  chmodSync(path, privateFileMode);
};

/** The warning for a DATA_DIR that other users may enter or read; null when it is private. */
export const openDirWarning = (dir: string): string | null => {
  const mode = statSync(dir).mode & 0o777;
  return (mode & 0o077) === 0
    ? null
    : `DATA_DIR ${dir} is open to other users (mode ${mode.toString(8).padStart(4, '0')}): it holds password and token hashes and webhook secrets; make it private with chmod 700 ${dir}`;
};
