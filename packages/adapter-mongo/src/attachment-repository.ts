import type { AttachmentRepository } from '@support/application';
import { fromAttachmentDocument, toAttachmentDocument, unattachedFilter } from './attachment-documents.js';
import type { MongoContext } from './context.js';
import { inTransaction } from './transactions.js';

/**
 * Uploads and attachments, one document each (attachment-documents.ts). A new upload counts
 * its uploader's unattached ones and inserts itself in one transaction that also bumps the
 * uploader's upload counter: two uploads of one user at once conflict on it, so the limit holds
 * across processes. A message takes and drops attachments in its own transaction
 * (message-repository.ts).
 */
export const mongoAttachmentRepository = (ctx: MongoContext): AttachmentRepository => {
  const { attachments, counters, maxTimeMS } = ctx;
  const limits = { maxTimeMS, retryWindowMs: maxTimeMS };
  return {
    insertUpload: (upload, max) =>
      ctx.run(
        () =>
          inTransaction(ctx.sessions, limits, async (session) => {
            await counters.updateOne(
              { _id: `uploads:${String(upload.uploaderId)}` },
              { $inc: { seq: 1 } },
              { upsert: true, session, maxTimeMS },
            );
            const held = await attachments.countDocuments(unattachedFilter(upload.uploaderId, upload.createdAt), {
              session,
              maxTimeMS,
            });
            if (held >= max) return false;
            await attachments.insertOne(toAttachmentDocument(upload), { session, maxTimeMS });
            return true;
          }),
        'write',
      ),
    find: (id) =>
      ctx.run(async () => {
        const d = await attachments.findOne({ _id: id }, { maxTimeMS });
        return d === null ? null : fromAttachmentDocument(d);
      }),
    countUnattached: (uploader, now) =>
      ctx.run(() => attachments.countDocuments(unattachedFilter(uploader, now), { maxTimeMS })),
    references: (blobKey) =>
      ctx.run(
        async () => (await attachments.countDocuments({ blobKey, deletedAt: null }, { limit: 1, maxTimeMS })) > 0,
      ),
    expired: (now, limit) =>
      ctx.run(async () =>
        (
          await attachments
            .find(
              { ticketId: null, expiresAt: { $lte: new Date(now) } },
              { sort: { expiresAt: 1, _id: 1 }, limit, maxTimeMS },
            )
            .toArray()
        ).map(fromAttachmentDocument),
      ),
    removeUpload: (id) =>
      ctx.run(
        async () => (await attachments.deleteOne({ _id: id, ticketId: null }, { maxTimeMS })).deletedCount === 1,
        'write',
      ),
  };
};
