import type { Ports } from '../ports/index.js';

// When bytes go (contract §9): once no upload or attachment names them. The blob store asks
// the records again under its own lock (BlobStore.erase), so a new upload of the same content
// racing the erasure keeps its bytes.

/** Erases the bytes under `key` unless a record still names them or an upload holds them. */
export const eraseUnreferenced = (ports: Pick<Ports, 'blobs' | 'attachments'>, key: string): Promise<boolean> =>
  ports.blobs.erase(key, () => ports.attachments.references(key));

/**
 * Erases bytes no record names: what a crash between a blob's `keep` and its record's commit
 * left behind. Run at start and now and then; `graceMs` spares blobs kept a moment ago.
 */
export const collectOrphans = async (ports: Pick<Ports, 'blobs' | 'attachments'>, graceMs: number): Promise<number> => {
  let erased = 0;
  for (const key of await ports.blobs.orphans((k) => ports.attachments.references(k), graceMs))
    if (await eraseUnreferenced(ports, key)) erased += 1;
  return erased;
};

/** Removes the uploads whose time ran out unattached, and their bytes when nothing else names them. */
export const expireUploads = async (ports: Pick<Ports, 'blobs' | 'attachments' | 'clock'>): Promise<number> => {
  let removed = 0;
  for (;;) {
    const due = await ports.attachments.expired(ports.clock.now(), 100);
    if (due.length === 0) return removed;
    for (const upload of due) {
      if (!(await ports.attachments.removeUpload(upload.id))) continue;
      removed += 1;
      await eraseUnreferenced(ports, upload.blobKey);
    }
  }
};
