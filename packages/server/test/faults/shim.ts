import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shim's source (beside this file's source: dist/test/faults -> test/faults). */
const source = fileURLToPath(new URL('../../../test/faults/fault-shim.c', import.meta.url));

let built: { readonly path: string } | { readonly missing: string } | null = null;

/**
 * The fault shim (fault-shim.c) compiled with the system's cc, once per run; or why it cannot
 * be (no compiler, not Linux): the caller says NOT RUN loudly and skips.
 */
export const faultShim = (): { readonly path: string } | { readonly missing: string } => {
  if (built !== null) return built;
  if (process.platform !== 'linux') return (built = { missing: 'LD_PRELOAD shims need Linux' });
  const dir = mkdtempSync(join(tmpdir(), 'support-fault-shim-'));
  const path = join(dir, 'fault-shim.so');
  try {
    execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', path, source, '-ldl'], { stdio: 'pipe' });
    built = { path };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    built = { missing: `cannot compile the LD_PRELOAD shim with cc (${(e as Error).message.split('\n')[0] ?? ''})` };
  }
  return built;
};

/** Says loudly that a suite did not run, and why. */
export const notRun = (what: string, why: string): void => {
  console.log(`    ${what} did NOT run: ${why}`);
};

/** A control file the shim reads at each call: `set('eio-sync')`, `set('')` for none. */
export const shimControl = (dir: string): { readonly path: string; set(words: string): void } => {
  const path = join(dir, 'shim-control');
  writeFileSync(path, '');
  return {
    path,
    set: (words) => {
      writeFileSync(path, words);
    },
  };
};

/**
 * Replays the shim's undo log backwards onto the store file: every write made since the last
 * successful sync is taken back, and the file cut to its size at that sync, as a power cut at
 * the moment of the kill would leave it (nothing unsynced reached the disk). Answers how many
 * writes were taken back.
 */
export const dropUnsynced = (undoLog: string, store: string): number => {
  let log: Buffer;
  try {
    log = readFileSync(undoLog);
  } catch {
    return 0;
  }
  const records: { offset: number; size: number; old: Buffer }[] = [];
  for (let at = 0; at + 32 <= log.length;) {
    const offset = Number(log.readBigUInt64LE(at));
    const size = Number(log.readBigUInt64LE(at + 16));
    const oldLength = Number(log.readBigUInt64LE(at + 24));
    records.push({ offset, size, old: log.subarray(at + 32, at + 32 + oldLength) });
    at += 32 + oldLength;
  }
  if (records.length === 0) return 0;
  const file = Buffer.from(readFileSync(store));
  for (const r of records.reverse()) r.old.copy(file, r.offset);
  const size = records.at(-1)?.size ?? file.length;
  writeFileSync(store, file.subarray(0, Math.min(size, file.length)));
  writeFileSync(undoLog, '');
  return records.length;
};
