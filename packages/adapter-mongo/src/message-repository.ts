import type { MessageRepository } from '@support/application';
import { done, type MongoContext } from './context.js';
import { fromMessageDocument, messageProjection, toMessageDocument, type MessageDocument } from './documents.js';
import { countedPage } from './ticket-query.js';
import { messageListFilter, messageListSort, versionedFilter } from './writes.js';

export const mongoMessageRepository = (ctx: MongoContext): MessageRepository => {
  const { messages, maxTimeMS } = ctx;
  return {
    insert: (m) => ctx.run(() => done(messages.insertOne(toMessageDocument(m)))),
    find: (ticketId, number) =>
      ctx.run(async () => {
        const d = await messages.findOne<MessageDocument>({ ticketId, number }, { projection: messageProjection, maxTimeMS });
        return d === null ? null : fromMessageDocument(d);
      }),
    update: (m, expectedVersion) =>
      ctx.run(async () => {
        const key = { ticketId: m.ticketId as number, number: m.number as number };
        const r = await messages.replaceOne(versionedFilter(key, expectedVersion), toMessageDocument(m), { maxTimeMS });
        return r.matchedCount === 1;
      }),
    list: (ticketId, includeInternal, offset, limit) =>
      ctx.run(async () => {
        const filter = messageListFilter(ticketId, includeInternal);
        const page = await countedPage(
          offset,
          limit,
          () => messages.countDocuments(filter, { maxTimeMS }),
          (window) => messages.find<MessageDocument>(filter, { projection: messageProjection, sort: messageListSort, ...window, maxTimeMS }).toArray(),
        );
        return { items: page.items.map(fromMessageDocument), total: page.total };
      }),
  };
};
