import { spawn } from 'node:child_process';
import { closeSync, fsyncSync, openSync, readFileSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DataDirError, dataFiles } from './data-dir.js';
import { makePrivateDir } from './private-files.js';

/** The data directories this process holds. */
const heldHere = new Set<string>();

/** How long a start waits for the lock (a holder that was just killed lets go within milliseconds). */
const waitSeconds = '1';
const conflict = 75;

/** What service.pid says of the holder, for the refusal's line. */
const holderOf = (dir: string): string => {
  try {
    const holder = JSON.parse(readFileSync(join(dir, dataFiles.owner), 'utf8')) as Record<string, unknown>;
    return ` (its ${dataFiles.owner}: pid ${String(holder.pid)} on ${String(holder.host)} since ${String(holder.since)}, as that process saw it)`;
  } catch {
    return '';
  }
};

const writeOwner = (dir: string): void => {
  const fd = openSync(join(dir, dataFiles.owner), 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * Makes this process the data directory's only user (LMDB itself lets several processes in,
 * but the memory store in front of it is one process's), with a lock the kernel keeps:
 * flock(2) on `service.lock`, taken and held by util-linux's `flock` command as a helper
 * process that reads a pipe from this one. The kernel closes the pipe when this process ends,
 * however it ends (SIGKILL included); the helper then exits and the kernel drops its lock. A
 * kernel lock holds across PID namespaces (two containers on one volume) and pid reuse, which a
 * pid file cannot tell apart; `service.pid` only names the holder in the refusal. `onLost`:
 * the helper died while held (someone killed it), so the directory is no longer guarded.
 * Answers the release, which resolves once the lock is free.
 */
export const takeOwnership = async (dir: string, onLost: (cause: Error) => void): Promise<() => Promise<void>> => {
  makePrivateDir(dir);
  const real = realpathSync(dir);
  const path = join(dir, dataFiles.lock);
  if (heldHere.has(real)) throw new DataDirError(`DATA_DIR ${dir} is in use by this process already (${path})`);
  closeSync(openSync(path, 'a', 0o600));
  const helper = spawn(
    'flock',
    [
      '--exclusive',
      '--wait',
      waitSeconds,
      '--conflict-exit-code',
      String(conflict),
      path,
      'sh',
      '-c',
      'echo held; exec cat >/dev/null',
    ],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  const exited = new Promise<void>((resolve) => {
    helper.once('close', () => {
      resolve();
    });
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const fail = (e: Error): void => {
      helper.stdin.destroy();
      reject(e);
    };
    helper.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      if (out.includes('held\n')) resolve();
    });
    helper.once('error', (e: NodeJS.ErrnoException) => {
      fail(
        new DataDirError(
          e.code === 'ENOENT'
            ? `DATA_DIR ${dir}: holding it for one process needs the flock command (util-linux), which is not installed`
            : `DATA_DIR ${dir}: its lock ${path} cannot be taken: ${e.message}`,
        ),
      );
    });
    helper.once('exit', (code, signal) => {
      fail(
        code === conflict
          ? new DataDirError(
              `DATA_DIR ${dir} is in use by another process, which holds ${path}${holderOf(dir)}; stop it first, or give this process another DATA_DIR`,
            )
          : new DataDirError(
              `DATA_DIR ${dir}: its lock ${path} cannot be taken (flock exited ${String(code ?? signal)})`,
            ),
      );
    });
  });
  heldHere.add(real);
  let released = false;
  helper.removeAllListeners('exit');
  helper.once('exit', (code, signal) => {
    if (!released)
      onLost(new Error(`the lock of DATA_DIR ${dir} was lost: its flock helper ended (${String(code ?? signal)})`));
  });
  helper.stdout.destroy();
  helper.unref();
  (helper.stdin as unknown as { unref?: () => void }).unref?.();
  writeOwner(dir);
  return async () => {
    if (released) return;
    released = true;
    heldHere.delete(real);
    rmSync(join(dir, dataFiles.owner), { force: true });
    // Held by the pipe until now, unreferenced: the wait for the helper's exit must keep the process alive.
    helper.ref();
    helper.stdin.end();
    await exited;
  };
};
