import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childEnv } from './child.js';

/** The backup command as an operator runs it: `node .../backup.js <dir>`. */
export const backupJs = fileURLToPath(new URL('../../src/backup.js', import.meta.url));

/**
 * The backup of `dataDir` into `to`, in a process of its own: `done` answers its exit code and
 * what it printed (stdout and stderr, in the order they came); `kill` SIGKILLs it.
 */
export const runBackup = (
  dataDir: string,
  to: string,
): { done: Promise<{ code: number | null; out: string }>; kill(): void } => {
  const proc = spawn(process.execPath, [backupJs, to], {
    env: childEnv({ DATA_DIR: dataDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  proc.stderr.setEncoding('utf8').on('data', (s: string) => (out += s));
  return {
    done: new Promise((resolve) => {
      proc.on('close', (code) => {
        resolve({ code, out });
      });
    }),
    kill: () => proc.kill('SIGKILL'),
  };
};
