import type { TicketRepository } from '@support/application';
import { ticketEvent } from '@support/domain';
import { recordedWrite, type MongoContext } from './context.js';
import { fromTicketDocument, ticketProjection, toTicketDocument, type StoredTicket } from './documents.js';
import { textFieldIds } from './ticket-field-repository.js';
import { ticketIndexName } from './indexes.js';
import { searchTickets } from './ticket-search.js';
import { versionedFilter } from './writes.js';

export const mongoTicketRepository = (ctx: MongoContext): TicketRepository => {
  const { tickets, maxTimeMS } = ctx;
  return {
    insert: (t, by) =>
      recordedWrite(ctx, async (session) => {
        await tickets.insertOne(toTicketDocument(t, await textFieldIds(ctx)), { session });
        return { result: undefined, changes: [ticketEvent('created', t, t.updatedAt, by)] };
      }),
    findById: (id) =>
      ctx.run(async () => {
        const d = await tickets.findOne<StoredTicket>({ _id: id }, { projection: ticketProjection, maxTimeMS });
        return d === null ? null : fromTicketDocument(d);
      }),
    update: (t, expectedVersion, by) =>
      recordedWrite(ctx, async (session) => {
        const document = toTicketDocument(t, await textFieldIds(ctx));
        const r = await tickets.replaceOne(versionedFilter({ _id: t.id }, expectedVersion), document, {
          session,
          maxTimeMS,
        });
        return r.matchedCount === 1
          ? { result: true, changes: [ticketEvent('updated', t, t.updatedAt, by)] }
          : { result: false, changes: [] };
      }),
    search: (filter, sort, offset, limit) => ctx.run(() => searchTickets(ctx, ctx.search, filter, sort, offset, limit)),
    countHolding: (fieldId, values) =>
      ctx.run(() =>
        tickets.countDocuments(
          { cf: { $elemMatch: { k: fieldId, v: { $in: [...values] } } }, deleted: false },
          { hint: ticketIndexName.custom, maxTimeMS },
        ),
      ),
  };
};
