import type { PersonalTokenRecord, PersonalTokenStore } from '@support/application';
import type { UserId } from '@support/domain';
import type { MongoContext } from './context.js';
import type { PersonalTokenDocument } from './service-documents.js';
import { countedPage } from './ticket-query.js';

const toDocument = (r: PersonalTokenRecord): PersonalTokenDocument => ({
  _id: r.id,
  userId: r.userId,
  name: r.name,
  scopes: [...r.scopes],
  hash: r.hash,
  createdAt: new Date(r.createdAt),
  expiresAt: new Date(r.expiresAt),
  lastUsedAt: r.lastUsedAt === null ? null : new Date(r.lastUsedAt),
});

const fromDocument = (d: PersonalTokenDocument): PersonalTokenRecord => ({
  id: d._id,
  userId: d.userId as UserId,
  name: d.name,
  scopes: d.scopes,
  hash: d.hash,
  createdAt: d.createdAt.getTime(),
  expiresAt: d.expiresAt.getTime(),
  lastUsedAt: d.lastUsedAt === null ? null : d.lastUsedAt.getTime(),
});

export const mongoPersonalTokenStore = (ctx: MongoContext): PersonalTokenStore => {
  const { personalTokens, maxTimeMS } = ctx;
  return {
    // Insert, then count the live tokens up to this one (ids grow): of concurrent inserts past
    // the limit, in any process, each one over it finds itself over and takes itself back.
    insert: (r, limit) =>
      ctx.run(async () => {
        await personalTokens.insertOne(toDocument(r), { maxTimeMS });
        if (limit === undefined) return true;
        const live = await personalTokens.countDocuments(
          { userId: r.userId, _id: { $lte: r.id }, expiresAt: { $gt: new Date(limit.now) } },
          { hint: 'personal_tokens_user', maxTimeMS },
        );
        if (live <= limit.maxLive) return true;
        await personalTokens.deleteOne({ _id: r.id }, { maxTimeMS });
        return false;
      }),
    findByHash: (hash, now) =>
      ctx.run(async () => {
        const d = await personalTokens.findOne({ hash, expiresAt: { $gt: new Date(now) } }, { maxTimeMS });
        return d === null ? null : fromDocument(d);
      }),
    findById: (id) =>
      ctx.run(async () => {
        const d = await personalTokens.findOne({ _id: id }, { maxTimeMS });
        return d === null ? null : fromDocument(d);
      }),
    list: (userId, offset, limit) =>
      ctx.run(async () => {
        const page = await countedPage(
          offset,
          limit,
          () => personalTokens.countDocuments({ userId }, { hint: 'personal_tokens_user', maxTimeMS }),
          (window) =>
            personalTokens
              .find({ userId }, { sort: { userId: 1, _id: 1 }, hint: 'personal_tokens_user', ...window, maxTimeMS })
              .toArray(),
        );
        return { items: page.items.map(fromDocument), total: page.total };
      }),
    revoke: (id) =>
      ctx.run(async () => (await personalTokens.deleteOne({ _id: id }, { maxTimeMS })).deletedCount === 1),
    // One conditional update: of several processes seeing the same token within the interval, one writes.
    touch: (id, at, intervalMs) =>
      ctx.run(async () => {
        const r = await personalTokens.updateOne(
          { _id: id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lte: new Date(at - intervalMs) } }] },
          { $set: { lastUsedAt: new Date(at) } },
          { maxTimeMS },
        );
        return r.modifiedCount === 1;
      }),
  };
};
