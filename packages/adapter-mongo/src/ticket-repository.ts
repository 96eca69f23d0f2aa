import type { TicketRepository } from '@support/application';
import { done, journaledOn, type MongoContext } from './context.js';
import { fromTicketDocument, ticketProjection, toTicketDocument, type StoredTicket } from './documents.js';
import { searchTickets } from './ticket-search.js';
import { versionedFilter } from './writes.js';

export const mongoTicketRepository = (ctx: MongoContext): TicketRepository => {
  const { tickets, maxTimeMS } = ctx;
  return {
    insert: (t) => ctx.run(() => done(tickets.insertOne(toTicketDocument(t)))),
    findById: (id) =>
      ctx.run(async () => {
        const d = await tickets.findOne<StoredTicket>({ _id: id }, { projection: ticketProjection, maxTimeMS });
        return d === null ? null : fromTicketDocument(d);
      }),
    update: (t, expectedVersion) =>
      ctx.run(async () => {
        const r = await tickets.replaceOne(versionedFilter({ _id: t.id }, expectedVersion), toTicketDocument(t), { maxTimeMS });
        return r.matchedCount === 1;
      }),
    search: (filter, sort, offset, limit) => ctx.run(() => searchTickets(ctx, ctx.search, filter, sort, offset, limit)),
    renameCustomer: (customerId, name, now) => journaledOn(ctx, { op: 'renameCustomer', customerId, name, now }),
    unassignUser: (userId, now) => journaledOn(ctx, { op: 'unassignUser', userId, now }),
    clearGroup: (groupId, now) => journaledOn(ctx, { op: 'clearGroup', groupId, now }),
  };
};
