import type { TicketFieldRepository } from '@support/application';
import { byPosition, isTextType, ticketFieldEvent } from '@support/domain';
import { recordedWrite, type MongoContext } from './context.js';
import {
  fromTicketFieldDocument as fromDocument,
  toTicketFieldDocument as toDocument,
} from './custom-field-documents.js';
import { isDuplicateKeyOn } from './errors.js';
import { uniqueIndexNames } from './indexes.js';
import { versionedFilter } from './writes.js';

// Custom field definitions (contract §10), one document each (`_id` the id). Deleting one
// leaves its values in the tickets' `cf` entries, where no query finds them: every query
// names field ids, and a new field has a new id.

/** The ids of the text, textarea and regexp fields, whose words a ticket document carries for `q`. */
export const textFieldIds = async (ctx: MongoContext): Promise<ReadonlySet<number>> => {
  const docs = await ctx.ticketFields
    .find(
      { type: { $in: ['text', 'textarea', 'regexp'] } },
      { projection: { _id: 1, type: 1 }, maxTimeMS: ctx.maxTimeMS },
    )
    .toArray();
  return new Set(docs.filter((d) => isTextType(d.type)).map((d) => d._id));
};

const keyTaken = (e: unknown): boolean => isDuplicateKeyOn(e, uniqueIndexNames.ticketFieldKey, 'key');

export const mongoTicketFieldRepository = (ctx: MongoContext): TicketFieldRepository => {
  const { ticketFields, maxTimeMS } = ctx;
  return {
    list: () =>
      ctx.run(async () => (await ticketFields.find({}, { maxTimeMS }).toArray()).map(fromDocument).sort(byPosition)),
    findById: (id) =>
      ctx.run(async () => {
        const d = await ticketFields.findOne({ _id: id }, { maxTimeMS });
        return d === null ? null : fromDocument(d);
      }),
    insert: async (field, limit, by) => {
      try {
        return await recordedWrite(ctx, async (session) => {
          if ((await ticketFields.countDocuments({}, { session, maxTimeMS })) >= limit)
            return { result: 'too_many' as const, changes: [] };
          await ticketFields.insertOne(toDocument(field), { session });
          return { result: 'ok' as const, changes: [ticketFieldEvent('created', field, field.updatedAt, by)] };
        });
      } catch (e) {
        if (keyTaken(e)) return 'key_taken' as const;
        throw e;
      }
    },
    update: (field, expectedVersion, by) =>
      recordedWrite(ctx, async (session) => {
        const r = await ticketFields.replaceOne(
          versionedFilter({ _id: field.id }, expectedVersion),
          toDocument(field),
          {
            session,
            maxTimeMS,
          },
        );
        return r.matchedCount === 1
          ? { result: true, changes: [ticketFieldEvent('updated', field, field.updatedAt, by)] }
          : { result: false, changes: [] };
      }),
    delete: (id, now, by) =>
      recordedWrite(ctx, async (session) => {
        const old = await ticketFields.findOne({ _id: id }, { session, maxTimeMS });
        if (old === null) return { result: false, changes: [] };
        await ticketFields.deleteOne({ _id: id }, { session, maxTimeMS });
        return { result: true, changes: [ticketFieldEvent('deleted', fromDocument(old), now, by)] };
      }),
  };
};
