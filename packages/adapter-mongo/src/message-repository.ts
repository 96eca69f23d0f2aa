import type { MessageRepository } from '@support/application';
import { messageEvent } from '@support/domain';
import { recordedWrite, type MongoContext } from './context.js';
import { fromMessageDocument, messageProjection, toMessageDocument, type MessageDocument } from './documents.js';
import { countedPage } from './ticket-query.js';
import { messageListFilter, messageListSort, versionedFilter } from './writes.js';

export const mongoMessageRepository = (ctx: MongoContext): MessageRepository => {
  const { messages, maxTimeMS } = ctx;
  return {
    insert: (m, by) =>
      recordedWrite(ctx, async (session) => {
        await messages.insertOne(toMessageDocument(m), { session });
        return { result: undefined, changes: [messageEvent('created', m, m.updatedAt, by)] };
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
        const r = await messages.replaceOne(versionedFilter(key, expectedVersion), toMessageDocument(m), {
          session,
          maxTimeMS,
        });
        return r.matchedCount === 1
          ? { result: true, changes: [messageEvent('updated', m, m.updatedAt, by)] }
          : { result: false, changes: [] };
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
  };
};
