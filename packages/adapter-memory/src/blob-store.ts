import { BlobHolds, type BlobStore, type StageOutcome } from '@support/application';
import { createHash } from 'node:crypto';

async function* once(bytes: Buffer): AsyncIterable<Uint8Array> {
  yield await Promise.resolve(bytes);
}

/**
 * Files' bytes in the process (the memory store's BlobStore): by SHA-256, so the same content is
 * kept once. A file is in memory whole here; the durable stores stream to disk or MongoDB.
 */
export const memoryBlobStore = (): BlobStore => {
  // Map: transient: the memory store's bytes (a durable store keeps its own: the embedded store's files in DATA_DIR/blobs)
  const blobs = new Map<string, { readonly bytes: Buffer; readonly keptAt: number }>();
  const holds = new BlobHolds();
  return {
    stage: async (source, maxBytes, taken): Promise<StageOutcome> => {
      const parts: Buffer[] = [];
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of source) {
        size += chunk.length;
        if (size > maxBytes) return { kind: 'too_large' };
        hash.update(chunk);
        parts.push(Buffer.from(chunk));
        taken?.(chunk);
      }
      const bytes = Buffer.concat(parts);
      const sha256 = hash.digest('hex');
      return {
        kind: 'staged',
        blob: {
          sha256,
          size,
          read: () => once(bytes),
          discard: () => Promise.resolve(),
          keep: () =>
            holds.locked(sha256, () => {
              if (!blobs.has(sha256)) blobs.set(sha256, { bytes, keptAt: Date.now() });
              return Promise.resolve(holds.hold(sha256));
            }),
        },
      };
    },
    open: (key, range) => {
      const blob = blobs.get(key);
      if (blob === undefined) return Promise.resolve(null);
      return Promise.resolve(once(range === undefined ? blob.bytes : blob.bytes.subarray(range.start, range.end + 1)));
    },
    erase: (key, stillReferenced) =>
      holds.eraseUnlessNamed(key, stillReferenced, () => Promise.resolve(blobs.delete(key))),
    orphans: async (referenced, graceMs) => {
      const before = Date.now() - graceMs;
      const out: string[] = [];
      for (const [key, blob] of [...blobs])
        if (blob.keptAt <= before && !holds.isHeld(key) && !(await referenced(key))) out.push(key);
      return out;
    },
  };
};
