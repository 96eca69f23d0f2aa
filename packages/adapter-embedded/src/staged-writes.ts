import type { FileHandle } from 'node:fs/promises';

// An upload's bytes on their way into its staging file (blob-files.ts): copied, as each chunk
// arrives, into a 256 KiB write buffer of our own, which is written in one call once full (one
// write in flight while the next buffer fills; the upload is read on meanwhile). Buffers are
// reused from upload to upload.
//
// Why a copy: node hands each ~16 KiB of a request body over in a new ArrayBuffer. V8 counts
// those buffers' bytes against the old generation's limit until a collection frees them, and
// one that is still referenced at two scavenges is promoted: then only a mark-compact frees it.
// Holding the chunks themselves until their batch was written kept many alive across scavenges,
// and a burst of uploads set off mark-compacts one after the other (docs/benchmarks.md,
// "Attachments"). Copied at once, a chunk dies in the turn it arrived in; the write buffers live
// on and are never new garbage. A memcpy of 16 KiB costs about a microsecond.

/** How many bytes of an upload are gathered before one write (not one write per TLS record). */
export const writeBufferBytes = 256 * 1024;

export interface WriteBuffers {
  take(): Buffer;
  give(buffer: Buffer): void;
  /** How many buffers wait to be reused (tests). */
  readonly idle: () => number;
}

/** Write buffers one upload holds at most while it is read: the one filling and the one being written. */
export const buffersPerUpload = 2;
/**
 * The most idle write buffers kept (8 MiB), whatever UPLOAD_CONCURRENCY: a service told to read
 * hundreds of uploads at once does not hold its burst's peak for ever.
 */
export const maxIdleWriteBuffers = 32;

/**
 * How many idle write buffers to keep when the service reads `uploadsAtOnce` uploads at once
 * (UPLOAD_CONCURRENCY): enough for all of them, so that a new upload takes a kept buffer rather
 * than making one (a new 256 KiB buffer counts against V8's limit until a collection frees it).
 */
export const idleWriteBuffers = (uploadsAtOnce: number): number =>
  Math.min(maxIdleWriteBuffers, buffersPerUpload * Math.max(1, Math.floor(uploadsAtOnce)));

/** Write buffers kept for reuse: at most `keep` idle ones. */
export const writeBuffers = (keep: number): WriteBuffers => {
  const idle: Buffer[] = [];
  return {
    take: () => idle.pop() ?? Buffer.allocUnsafeSlow(writeBufferBytes),
    give: (buffer) => {
      if (idle.length < keep) idle.push(buffer);
    },
    idle: () => idle.length,
  };
};

export interface StagedWrites {
  /** Takes `chunk`'s bytes (copied: the caller may drop it at once); resolves once they may be taken further. */
  add(chunk: Uint8Array): Promise<void> | undefined;
  /** Writes what is gathered and waits for every write. */
  finish(): Promise<void>;
  /** Waits for the write in flight, whatever its outcome, and gives the buffers back (before the file is closed). */
  settled(): Promise<void>;
}

/**
 * Writes to `fh` through buffers from `pool`. A short write (a full disk) is an error: a kept
 * file always holds every byte hashed.
 */
export const stagedWrites = (fh: FileHandle, pool: WriteBuffers): StagedWrites => {
  let filling: Buffer | null = null;
  let filled = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const write = async (buffer: Buffer, bytes: number): Promise<void> => {
    try {
      const { bytesWritten } = await fh.write(buffer, 0, bytes, null);
      if (bytesWritten !== bytes)
        throw Object.assign(new Error(`wrote ${String(bytesWritten)} of ${String(bytes)} bytes`), { code: 'ENOSPC' });
    } finally {
      pool.give(buffer);
    }
  };
  /** Starts writing the filled buffer once the previous write has ended. */
  const flush = async (): Promise<void> => {
    await inFlight;
    if (filling === null || filled === 0) return;
    const started = write(filling, filled);
    // Awaited by the next flush or by finish/settled; never left to reject unobserved.
    started.catch(() => undefined);
    inFlight = started;
    filling = null;
    filled = 0;
  };
  const copy = (chunk: Uint8Array, from: number): number => {
    filling ??= pool.take();
    const n = Math.min(chunk.length - from, writeBufferBytes - filled);
    filling.set(from === 0 && n === chunk.length ? chunk : chunk.subarray(from, from + n), filled);
    filled += n;
    return from + n;
  };
  const addRest = async (chunk: Uint8Array, from: number): Promise<void> => {
    let at = from;
    while (at < chunk.length) {
      await flush();
      at = copy(chunk, at);
    }
    if (filled === writeBufferBytes) await flush();
  };
  return {
    add: (chunk) => {
      const at = copy(chunk, 0);
      if (at === chunk.length && filled < writeBufferBytes) return undefined;
      return addRest(chunk, at);
    },
    finish: async () => {
      await flush();
      await inFlight;
      // Only an upload of no bytes, or ending in an empty chunk, leaves a buffer unused here.
      if (filling !== null) pool.give(filling);
      filling = null;
    },
    settled: async () => {
      await inFlight.catch(() => undefined);
      if (filling !== null) pool.give(filling);
      filling = null;
      filled = 0;
    },
  };
};
