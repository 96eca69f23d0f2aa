import type { GroupRepository, GroupWriteResult } from '@support/application';
import type { MongoContext } from './context.js';
import { fromGroupDocument, toGroupDocument } from './documents.js';
import { isDuplicateKeyOn } from './errors.js';
import { uniqueIndexNames } from './indexes.js';
import { countedPage } from './ticket-query.js';
import { versionedFilter } from './writes.js';

const nameTaken = (e: unknown): boolean => isDuplicateKeyOn(e, uniqueIndexNames.groupName, 'nameKey');

export const mongoGroupRepository = (ctx: MongoContext): GroupRepository => {
  const { groups, maxTimeMS } = ctx;
  return {
    insert: (g) =>
      ctx.run(async () => {
        try {
          await groups.insertOne(toGroupDocument(g));
          return 'ok' as const;
        } catch (e) {
          if (nameTaken(e)) return 'name_taken' as const;
          throw e;
        }
      }),
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
    update: (g, expectedVersion) =>
      ctx.run(async (): Promise<GroupWriteResult> => {
        try {
          const r = await groups.replaceOne(versionedFilter({ _id: g.id }, expectedVersion), toGroupDocument(g), { maxTimeMS });
          return r.matchedCount === 1 ? 'ok' : 'version_mismatch';
        } catch (e) {
          if (nameTaken(e)) return 'name_taken';
          throw e;
        }
      }),
    delete: (id) => ctx.run(async () => (await groups.deleteOne({ _id: id }, { maxTimeMS })).deletedCount === 1),
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
