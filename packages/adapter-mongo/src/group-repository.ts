import type { GroupRepository, GroupWriteResult } from '@support/application';
import { groupDeletedEvent, groupEvent } from '@support/domain';
import { recordedWrite, type MongoContext } from './context.js';
import { fromGroupDocument, toGroupDocument } from './documents.js';
import { isDuplicateKeyOn } from './errors.js';
import { uniqueIndexNames } from './indexes.js';
import { countedPage } from './ticket-query.js';
import { versionedFilter } from './writes.js';

const nameTaken = (e: unknown): boolean => isDuplicateKeyOn(e, uniqueIndexNames.groupName, 'nameKey');

export const mongoGroupRepository = (ctx: MongoContext): GroupRepository => {
  const { groups, maxTimeMS } = ctx;
  return {
    // A duplicate key aborts the transaction; it is told apart once the transaction is over.
    insert: async (g, by) => {
      try {
        return await recordedWrite(ctx, async (session) => {
          await groups.insertOne(toGroupDocument(g), { session });
          return { result: 'ok' as const, changes: [groupEvent('created', g, g.updatedAt, by)] };
        });
      } catch (e) {
        if (nameTaken(e)) return 'name_taken' as const;
        throw e;
      }
    },
    findById: (id) =>
      ctx.run(async () => {
        const d = await groups.findOne({ _id: id }, { maxTimeMS });
        return d === null ? null : fromGroupDocument(d);
      }),
    findByIds: (ids) =>
      ctx.run(async () => {
        if (ids.length === 0) return [];
        return (await groups.find({ _id: { $in: [...ids] } }, { maxTimeMS }).toArray()).map(fromGroupDocument);
      }),
    update: async (g, expectedVersion, by): Promise<GroupWriteResult> => {
      try {
        return await recordedWrite(ctx, async (session) => {
          const r = await groups.replaceOne(versionedFilter({ _id: g.id }, expectedVersion), toGroupDocument(g), {
            session,
            maxTimeMS,
          });
          return r.matchedCount === 1
            ? { result: 'ok' as const, changes: [groupEvent('updated', g, g.updatedAt, by)] }
            : { result: 'version_mismatch' as const, changes: [] };
        });
      } catch (e) {
        if (nameTaken(e)) return 'name_taken';
        throw e;
      }
    },
    delete: (id, now, by, followUps = []) =>
      recordedWrite(ctx, async (session) => {
        const gone = (await groups.deleteOne({ _id: id }, { session, maxTimeMS })).deletedCount === 1;
        return gone
          ? { result: true, changes: [groupDeletedEvent(id, now, by)], followUps, by }
          : { result: false, changes: [] };
      }),
    list: (offset, limit) =>
      ctx.run(async () => {
        const page = await countedPage(
          offset,
          limit,
          () => groups.countDocuments({}, { hint: { _id: 1 }, maxTimeMS }),
          (window) => groups.find({}, { sort: { _id: 1 }, ...window, maxTimeMS }).toArray(),
        );
        return { items: page.items.map(fromGroupDocument), total: page.total };
      }),
  };
};
