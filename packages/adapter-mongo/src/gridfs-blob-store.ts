import { BlobHolds, type BlobStore, type StageOutcome } from '@support/application';
import { ObjectId } from 'mongodb';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { MongoContext } from './context.js';

// The files' bytes on MongoDB (contract §9): GridFS, through the driver's GridFSBucket (chunks of
// 255 KiB, streamed both ways, no 16 MB document limit). Each upload is a GridFS file of its own,
// named by its ObjectId (the key); several processes share the database, so the same content is
// not shared between uploads. The files document is written when the last chunk is, with the
// majority write concern: an upload answered is durable before its record's transaction
// commits. What a crash leaves (chunks without a files document, a file no record names) is
// collected by the sweep once older than its grace period.

const isKey = (key: string): boolean => /^[0-9a-f]{24}$/.test(key);

export const gridfsBlobStore = (ctx: MongoContext): BlobStore => {
  const { bucket, blobFiles, blobChunks, maxTimeMS } = ctx;
  const holds = new BlobHolds();
  const remove = async (id: ObjectId): Promise<boolean> => {
    const files = await blobFiles.deleteOne({ _id: id }, { maxTimeMS });
    const chunks = await blobChunks.deleteMany({ files_id: id }, { maxTimeMS });
    return files.deletedCount + chunks.deletedCount > 0;
  };
  return {
    stage: async (source, maxBytes): Promise<StageOutcome> => {
      await ctx.run(() => Promise.resolve());
      const id = new ObjectId();
      const upload = bucket.openUploadStreamWithId(id, 'upload');
      const failure = once(upload, 'error').then(([e]) => Promise.reject(e as Error));
      failure.catch(() => undefined);
      const hash = createHash('sha256');
      let size = 0;
      try {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > maxBytes) {
            await upload.abort();
            return { kind: 'too_large' };
          }
          hash.update(chunk);
          if (!upload.write(chunk)) await Promise.race([once(upload, 'drain'), failure]);
        }
        upload.end();
        await Promise.race([once(upload, 'finish'), failure]);
      } catch (e) {
        await upload.abort().catch(() => remove(id));
        throw e;
      }
      const key = id.toHexString();
      // Staged bytes are a finished GridFS file already: held from here, out of the sweep's reach.
      const staging = holds.hold(key);
      return {
        kind: 'staged',
        blob: {
          sha256: hash.digest('hex'),
          size,
          read: () => bucket.openDownloadStream(id),
          discard: async () => {
            await ctx.run(() => remove(id));
            staging.release();
          },
          keep: () => {
            const held = holds.hold(key);
            staging.release();
            return Promise.resolve(held);
          },
        },
      };
    },
    open: async (key, range) => {
      if (!isKey(key)) return null;
      const id = new ObjectId(key);
      const file = await ctx.run(() => blobFiles.findOne({ _id: id }, { projection: { _id: 1 }, maxTimeMS }));
      if (file === null) return null;
      return bucket.openDownloadStream(id, range === undefined ? {} : { start: range.start, end: range.end + 1 });
    },
    erase: (key, stillReferenced) =>
      holds.eraseUnlessNamed(key, stillReferenced, () =>
        isKey(key) ? ctx.run(() => remove(new ObjectId(key)), 'write') : Promise.resolve(false),
      ),
    orphans: async (referenced, graceMs) => {
      const cutoff = new Date(Date.now() - graceMs);
      const out: string[] = [];
      const files = await ctx.run(() =>
        blobFiles.find({ uploadDate: { $lte: cutoff } }, { projection: { _id: 1 }, maxTimeMS }).toArray(),
      );
      for (const f of files) {
        const key = f._id.toHexString();
        if (!holds.isHeld(key) && !(await referenced(key))) out.push(key);
      }
      // Chunks whose upload never finished (its process died): no files document names them.
      const firsts = await ctx.run(() =>
        blobChunks.find({ n: 0 }, { projection: { files_id: 1 }, maxTimeMS }).toArray(),
      );
      for (const c of firsts) {
        const id = c.files_id;
        if (id.getTimestamp() > cutoff) continue;
        const file = await ctx.run(() => blobFiles.findOne({ _id: id }, { projection: { _id: 1 }, maxTimeMS }));
        if (file === null) out.push(id.toHexString());
      }
      return out;
    },
  };
};
