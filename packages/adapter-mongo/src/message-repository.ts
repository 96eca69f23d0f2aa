import type { MessageRepository, TicketAttachment } from '@support/application';
import { isAttachable, messageEvent, type AttachmentId, type MessageNumber, type UserId } from '@support/domain';
import { fromAttachmentDocument, fromSummaryDocument } from './attachment-documents.js';
import { recordedWrite, type MongoContext } from './context.js';
import { fromMessageDocument, messageProjection, toMessageDocument, type MessageDocument } from './documents.js';
import { countedPage } from './ticket-query.js';
import { messageListFilter, messageListSort, versionedFilter } from './writes.js';

export const mongoMessageRepository = (ctx: MongoContext): MessageRepository => {
  const { messages, attachments, maxTimeMS } = ctx;
  return {
    insert: (m, by) =>
      recordedWrite(ctx, async (session) => {
        // Its uploads become its attachments in the same transaction: one attached meanwhile by
        // another transaction conflicts with this one, which then runs again and refuses it.
        const ids = m.attachments.map((a) => a.id as number);
        if (ids.length > 0) {
          const found = await attachments.find({ _id: { $in: ids } }, { session, maxTimeMS }).toArray();
          const byId = new Map(found.map((d) => [d._id, fromAttachmentDocument(d)]));
          const refused = ids.filter((id) => {
            const a = byId.get(id);
            return a === undefined || !isAttachable(a, m.authorId, m.createdAt);
          });
          if (refused.length > 0) return { result: refused as AttachmentId[], changes: [] };
          await attachments.updateMany(
            { _id: { $in: ids } },
            { $set: { ticketId: m.ticketId, messageNumber: m.number, expiresAt: null } },
            { session, maxTimeMS },
          );
        }
        await messages.insertOne(toMessageDocument(m), { session });
        return { result: [], changes: [messageEvent('created', m, m.updatedAt, by)] };
      }),
    find: (ticketId, number) =>
      ctx.run(async () => {
        const d = await messages.findOne<MessageDocument>(
          { ticketId, number },
          { projection: messageProjection, maxTimeMS },
        );
        return d === null ? null : fromMessageDocument(d);
      }),
    update: (m, expectedVersion, by) =>
      recordedWrite(ctx, async (session) => {
        const key = { ticketId: m.ticketId as number, number: m.number as number };
        const stored = await messages.findOne(versionedFilter(key, expectedVersion), {
          session,
          projection: { attachments: 1 },
          maxTimeMS,
        });
        if (stored === null) return { result: false, changes: [] };
        await messages.replaceOne(versionedFilter(key, expectedVersion), toMessageDocument(m), { session, maxTimeMS });
        // An attachment the message no longer lists is deleted with the write.
        const kept = new Set(m.attachments.map((a) => a.id as number));
        const dropped = (stored.attachments ?? []).map((a) => a.id).filter((id) => !kept.has(id));
        if (dropped.length > 0)
          await attachments.updateMany(
            { _id: { $in: dropped }, deletedAt: null },
            { $set: { deletedAt: new Date(m.updatedAt) } },
            { session, maxTimeMS },
          );
        return { result: true, changes: [messageEvent('updated', m, m.updatedAt, by)] };
      }),
    list: (ticketId, includeInternal, offset, limit) =>
      ctx.run(async () => {
        const filter = messageListFilter(ticketId, includeInternal);
        const page = await countedPage(
          offset,
          limit,
          () => messages.countDocuments(filter, { maxTimeMS }),
          (window) =>
            messages
              .find<MessageDocument>(filter, {
                projection: messageProjection,
                sort: messageListSort,
                ...window,
                maxTimeMS,
              })
              .toArray(),
        );
        return { items: page.items.map(fromMessageDocument), total: page.total };
      }),
    attachments: (ticketId, includeInternal, offset, limit) =>
      ctx.run(async () => {
        // Few messages carry files: those of the ticket are read (their numbers, authors and
        // attachments only) and the page is cut here.
        const carrying = await messages
          .find<Pick<MessageDocument, 'number' | 'authorId' | 'attachments'>>(
            { ...messageListFilter(ticketId, includeInternal), 'attachments.0': { $exists: true } },
            { projection: { _id: 0, number: 1, authorId: 1, attachments: 1 }, sort: messageListSort, maxTimeMS },
          )
          .toArray();
        const all: TicketAttachment[] = carrying.flatMap((d) =>
          (d.attachments ?? []).map((a) => ({
            number: d.number as MessageNumber,
            authorId: d.authorId as UserId,
            attachment: fromSummaryDocument(a),
          })),
        );
        return { items: all.slice(offset, offset + limit), total: all.length };
      }),
  };
};
