import {
  BlobHolds,
  type AttachmentRepository,
  type BlobStore,
  type StageOutcome,
  type StagedBlob,
} from '@support/application';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { idleWriteBuffers, stagedWrites, writeBuffers } from './staged-writes.js';

// The embedded store's bytes (contract §9): one file per content under DATA_DIR/blobs/, named
// by its SHA-256 (the same content is kept once). An upload streams into a temporary file in
// blobs/tmp/ (same file system, so the rename is atomic), hashed and counted on the way, and is
// fsynced before its descriptor closes; `keep` renames it to its name and fsyncs the
// directory, all before the caller commits the record that names it: a record never names
// bytes a crash could take back. A crash before the record's commit leaves a file no record
// names, collected at the next start.

export const blobsDir = 'blobs';
const tmpDir = 'tmp';
const isKey = (key: string): boolean => /^[0-9a-f]{64}$/.test(key);

const syncPath = async (path: string, flags: string): Promise<void> => {
  const fh = await open(path, flags);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
};

/**
 * fsyncs a directory for every caller, with one sync for all who ask while one runs: the sync a
 * caller waits for starts after it asked (50 uploads kept at once: a few syncs, not 50).
 */
const groupedSync = (path: string): (() => Promise<void>) => {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const run = (): Promise<void> => {
    const started = syncPath(path, 'r').finally(() => {
      if (running === started) running = null;
    });
    running = started;
    return started;
  };
  return () => {
    if (running === null) return run();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return run();
      });
    return next;
  };
};

/**
 * A file's bytes, opened on the first read: a reader that never starts (a scanner that could
 * not reach clamd) leaves no descriptor, and no open that fails once the file is discarded.
 */
async function* readLazily(path: string): AsyncGenerator<Uint8Array> {
  for await (const chunk of createReadStream(path)) yield chunk as Uint8Array;
}

const isMissing = (e: unknown): boolean => (e as NodeJS.ErrnoException).code === 'ENOENT';

export interface BlobFiles extends BlobStore {
  /** Removes what a crash left in blobs/tmp (call at start, before any upload). */
  clearStaging(): void;
  /** The path of the file holding `key`'s bytes (backup copies it). */
  pathOf(key: string): string;
  /** How many write buffers wait to be reused (tests). */
  idleWriteBuffers(): number;
}

/** UPLOAD_CONCURRENCY's default (the HTTP adapter's): how many uploads the service reads at once. */
export const defaultUploadsAtOnce = 4;

/** `uploadsAtOnce`: how many uploads the service reads at once (UPLOAD_CONCURRENCY); sizes the write buffers kept. */
export const blobFiles = (dataDir: string, uploadsAtOnce = defaultUploadsAtOnce): BlobFiles => {
  const dir = join(dataDir, blobsDir);
  const staging = join(dir, tmpDir);
  const holds = new BlobHolds();
  const pathOf = (key: string): string => {
    if (!isKey(key)) throw new Error(`"${key.slice(0, 80)}" is not a blob key`);
    return join(dir, key);
  };
  const syncDir = groupedSync(dir);
  // Enough for the uploads read at once, two buffers each.
  const buffers = writeBuffers(idleWriteBuffers(uploadsAtOnce));
  const ready = (): void => {
    mkdirSync(staging, { recursive: true, mode: 0o700 });
  };
  /** A new staging file (blobs/tmp is made at start; made again should it have gone since). */
  const openStaged = async (path: string): Promise<FileHandle> => {
    try {
      return await open(path, 'wx', 0o600);
    } catch (e) {
      if (!isMissing(e)) throw e;
      await mkdir(staging, { recursive: true, mode: 0o700 });
      return open(path, 'wx', 0o600);
    }
  };

  // A staged file is synced and closed once written (no descriptor waits on the caller).
  const staged = (path: string, sha256: string, size: number): StagedBlob => ({
    sha256,
    size,
    read: () => readLazily(path),
    discard: () =>
      unlink(path).catch((e: unknown) => {
        if (!isMissing(e)) throw e;
      }),
    keep: () =>
      holds.locked(sha256, async () => {
        // Equal content kept before is replaced by these equal bytes (atomically): no look first.
        await rename(path, join(dir, sha256));
        await syncDir();
        return holds.hold(sha256);
      }),
  });

  return {
    pathOf,
    idleWriteBuffers: buffers.idle,
    clearStaging: () => {
      rmSync(staging, { recursive: true, force: true });
      ready();
    },
    stage: async (source, maxBytes, taken): Promise<StageOutcome> => {
      const path = join(staging, `${randomBytes(12).toString('hex')}.part`);
      const fh = await openStaged(path);
      const hash = createHash('sha256');
      const writes = stagedWrites(fh, buffers);
      let size = 0;
      const abandon = async (): Promise<void> => {
        await writes.settled();
        await fh.close();
        await unlink(path);
      };
      try {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > maxBytes) {
            await abandon();
            return { kind: 'too_large' };
          }
          hash.update(chunk);
          const copying = writes.add(chunk);
          if (copying !== undefined) await copying;
          // Copied: the chunk is read no more (its source may free it now).
          taken?.(chunk);
        }
        await writes.finish();
        await fh.sync();
      } catch (e) {
        await abandon();
        throw e;
      }
      await fh.close();
      return { kind: 'staged', blob: staged(path, hash.digest('hex'), size) };
    },
    open: async (key, range) => {
      let fh: FileHandle;
      try {
        fh = await open(pathOf(key), 'r');
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
      // An open file stays readable even when erased meanwhile.
      return fh.createReadStream(range === undefined ? {} : { start: range.start, end: range.end });
    },
    erase: (key, stillReferenced) =>
      holds.eraseUnlessNamed(key, stillReferenced, async () => {
        try {
          await unlink(pathOf(key));
        } catch (e) {
          if (isMissing(e)) return false;
          throw e;
        }
        await syncDir();
        return true;
      }),
    orphans: async (referenced, graceMs) => {
      ready();
      const before = Date.now() - graceMs;
      const out: string[] = [];
      for (const name of await readdir(dir)) {
        if (!isKey(name) || holds.isHeld(name)) continue;
        const info = await stat(join(dir, name)).catch(() => null);
        if (info === null || info.mtimeMs > before) continue;
        if (!(await referenced(name))) out.push(name);
      }
      return out;
    },
  };
};

/** The blob files of a data directory, by key (backup and tests). */
export const blobKeysIn = (dataDir: string): string[] => {
  try {
    return readdirSync(join(dataDir, blobsDir)).filter(isKey);
  } catch (e) {
    if (isMissing(e)) return [];
    throw e;
  }
};

/**
 * At start, before any upload: what a crash left behind goes. Staged files, and kept files no
 * record names (the crash came between a keep and its record's commit). Answers how many files
 * of the second kind were erased.
 */
export const collectLeftovers = async (
  files: BlobFiles,
  attachments: Pick<AttachmentRepository, 'references'>,
  log: (level: 'info', message: string, fields: Record<string, unknown>) => void,
): Promise<number> => {
  files.clearStaging();
  let erased = 0;
  const referenced = (key: string) => attachments.references(key);
  for (const key of await files.orphans(referenced, 0)) if (await files.erase(key, () => referenced(key))) erased += 1;
  if (erased > 0) log('info', 'embedded store: blob files no record names were erased', { files: erased });
  return erased;
};
