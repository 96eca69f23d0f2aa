import { attachTo, holdsBytes, isAttachable, type AttachmentId, type Message } from '@support/domain';
import { createHash } from 'node:crypto';
import type { BlobStore, Store } from '../../src/index.js';
import type { NaiveState } from './naive-state.js';

// The naive store's uploads and their bytes (see naive-store.ts): a map of records, a map of
// byte buffers named by their SHA-256, and the message writes that take and drop attachments.

/** The ids of a new message's attachments that its author may not attach now. */
export const refusedUploads = (s: NaiveState, m: Message): AttachmentId[] =>
  m.attachments
    .filter((a) => {
      const r = s.attachments.get(a.id);
      return r === undefined || !isAttachable(r, m.authorId, m.createdAt);
    })
    .map((a) => a.id);

export const attachUploads = (s: NaiveState, m: Message): void => {
  for (const a of m.attachments) {
    const r = s.attachments.get(a.id);
    if (r !== undefined) s.attachments.set(a.id, attachTo(r, { ticketId: m.ticketId, number: m.number }));
  }
};

/** The attachments `stored` lists and `next` does not are deleted with the write. */
export const dropAttachments = (s: NaiveState, stored: Message, next: Message): void => {
  for (const a of stored.attachments) {
    if (next.attachments.some((b) => b.id === a.id)) continue;
    const r = s.attachments.get(a.id);
    if (r !== undefined) s.attachments.set(a.id, { ...r, deletedAt: next.updatedAt });
  }
};

const unattached = (s: NaiveState, uploader: number, now: number): number =>
  [...s.attachments.values()].filter(
    (a) => a.uploaderId === uploader && a.message === null && a.deletedAt === null && (a.expiresAt ?? 0) > now,
  ).length;

export const naiveBlobStore = (): BlobStore & { readonly bytes: Map<string, Buffer> } => {
  const bytes = new Map<string, Buffer>();
  const held = new Map<string, number>();
  const keptAt = new Map<string, number>();
  const chunksOf = async function* (b: Buffer): AsyncIterable<Uint8Array> {
    yield await Promise.resolve(b);
  };
  return {
    bytes,
    stage: async (source, maxBytes) => {
      const parts: Buffer[] = [];
      let size = 0;
      for await (const chunk of source) {
        size += chunk.length;
        if (size > maxBytes) return { kind: 'too_large' };
        parts.push(Buffer.from(chunk));
      }
      const all = Buffer.concat(parts);
      const sha256 = createHash('sha256').update(all).digest('hex');
      return {
        kind: 'staged',
        blob: {
          sha256,
          size,
          read: () => chunksOf(all),
          discard: () => Promise.resolve(),
          keep: () => {
            bytes.set(sha256, all);
            keptAt.set(sha256, Date.now());
            held.set(sha256, (held.get(sha256) ?? 0) + 1);
            return Promise.resolve({
              key: sha256,
              release: () => {
                held.set(sha256, (held.get(sha256) ?? 1) - 1);
              },
            });
          },
        },
      };
    },
    open: (key, range) => {
      const b = bytes.get(key);
      if (b === undefined) return Promise.resolve(null);
      return Promise.resolve(chunksOf(range === undefined ? b : b.subarray(range.start, range.end + 1)));
    },
    erase: async (key, stillReferenced) => {
      if ((held.get(key) ?? 0) > 0 || (await stillReferenced())) return false;
      return bytes.delete(key);
    },
    orphans: async (referenced, graceMs) => {
      const out: string[] = [];
      const before = Date.now() - graceMs;
      for (const key of bytes.keys())
        if ((held.get(key) ?? 0) === 0 && (keptAt.get(key) ?? 0) <= before && !(await referenced(key))) out.push(key);
      return out;
    },
  };
};

export const filePorts = (s: NaiveState): Pick<Store, 'attachments' | 'blobs'> => ({
  blobs: naiveBlobStore(),
  attachments: {
    insertUpload: (upload, max) => {
      if (unattached(s, upload.uploaderId, upload.createdAt) >= max) return Promise.resolve(false);
      s.attachments.set(upload.id, upload);
      return Promise.resolve(true);
    },
    find: (id) => Promise.resolve(s.attachments.get(id) ?? null),
    countUnattached: (uploader, now) => Promise.resolve(unattached(s, uploader, now)),
    references: (key) => Promise.resolve([...s.attachments.values()].some((a) => a.blobKey === key && holdsBytes(a))),
    expired: (now, limit) =>
      Promise.resolve(
        [...s.attachments.values()]
          .filter((a) => a.message === null && a.expiresAt !== null && a.expiresAt <= now)
          .sort((a, b) => (a.expiresAt ?? 0) - (b.expiresAt ?? 0))
          .slice(0, limit),
      ),
    removeUpload: (id) => {
      const a = s.attachments.get(id);
      if (a?.message !== null) return Promise.resolve(false);
      return Promise.resolve(s.attachments.delete(id));
    },
  },
});
