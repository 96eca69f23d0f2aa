import type { UserRepository, UserWriteResult } from '@support/application';
import { emailKey, userDeletedEvent, userEvent } from '@support/domain';
import { recordedWrite, type MongoContext } from './context.js';
import { fromUserDocument, toUserDocument } from './documents.js';
import { isDuplicateKeyOn } from './errors.js';
import { uniqueIndexNames } from './indexes.js';
import { countedPage } from './ticket-query.js';
import { removeGroupFromUsersFilter, versionedFilter } from './writes.js';

const emailTaken = (e: unknown): boolean => isDuplicateKeyOn(e, uniqueIndexNames.userEmail, 'emailKey');

/** Counting every user reads the _id index, not the collection. */
const everyoneHint = { _id: 1 } as const;

export const mongoUserRepository = (ctx: MongoContext): UserRepository => {
  const { users, maxTimeMS } = ctx;
  return {
    // A duplicate key aborts the transaction; it is told apart once the transaction is over.
    insert: async (u, by) => {
      try {
        return await recordedWrite(ctx, async (session) => {
          await users.insertOne(toUserDocument(u), { session });
          return { result: 'ok' as const, changes: [userEvent('created', u, u.updatedAt, by)] };
        });
      } catch (e) {
        if (emailTaken(e)) return 'email_taken' as const;
        throw e;
      }
    },
    findById: (id) =>
      ctx.run(async () => {
        const d = await users.findOne({ _id: id }, { maxTimeMS });
        return d === null ? null : fromUserDocument(d);
      }),
    findByEmail: (email) =>
      ctx.run(async () => {
        const d = await users.findOne({ emailKey: emailKey(email) }, { maxTimeMS });
        return d === null ? null : fromUserDocument(d);
      }),
    findByIds: (ids) =>
      ctx.run(async () => {
        if (ids.length === 0) return [];
        const docs = await users.find({ _id: { $in: [...ids] } }, { maxTimeMS }).toArray();
        return docs.map(fromUserDocument);
      }),
    update: async (u, expectedVersion, by, followUps = []): Promise<UserWriteResult> => {
      try {
        return await recordedWrite(ctx, async (session) => {
          const r = await users.replaceOne(versionedFilter({ _id: u.id }, expectedVersion), toUserDocument(u), {
            session,
            maxTimeMS,
          });
          return r.matchedCount === 1
            ? { result: 'ok' as const, changes: [userEvent('updated', u, u.updatedAt, by)], followUps, by }
            : { result: 'version_mismatch' as const, changes: [] };
        });
      } catch (e) {
        if (emailTaken(e)) return 'email_taken';
        throw e;
      }
    },
    delete: (id, now, by, followUps = []) =>
      recordedWrite(ctx, async (session) => {
        const gone = (await users.deleteOne({ _id: id }, { session, maxTimeMS })).deletedCount === 1;
        return gone
          ? { result: true, changes: [userDeletedEvent(id, now, by)], followUps, by }
          : { result: false, changes: [] };
      }),
    list: (groupId, offset, limit) =>
      ctx.run(async () => {
        const filter = groupId === null ? {} : removeGroupFromUsersFilter(groupId);
        const page = await countedPage(
          offset,
          limit,
          () => users.countDocuments(filter, groupId === null ? { hint: everyoneHint, maxTimeMS } : { maxTimeMS }),
          (window) => users.find(filter, { sort: { _id: 1 }, ...window, maxTimeMS }).toArray(),
        );
        return { items: page.items.map(fromUserDocument), total: page.total };
      }),
    count: () => ctx.run(() => users.countDocuments({}, { hint: everyoneHint, maxTimeMS })),
  };
};
