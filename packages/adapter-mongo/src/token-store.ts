import type { ConsumeResult, TokenStore } from '@support/application';
import { done, journaledOn, type MongoContext } from './context.js';
import { fromTokenDocument, toTokenDocument } from './documents.js';
import { consumeToken, liveTokenFilter, saveToken } from './writes.js';

// Tokens are keyed by their hash; the TTL index on expiresAt lets MongoDB forget expired
// ones (within a minute of expiry), and every lookup checks the expiry against `now` itself.
export const mongoTokenStore = (ctx: MongoContext): TokenStore => {
  const { tokens, maxTimeMS } = ctx;
  return {
    save: (record) =>
      ctx.run(() => {
        const { filter, update, options } = saveToken(toTokenDocument(record));
        return done(tokens.updateOne(filter, update, { ...options, maxTimeMS }));
      }),
    find: (hash, now) =>
      ctx.run(async () => {
        const d = await tokens.findOne(liveTokenFilter(hash, now), { maxTimeMS });
        return d === null ? null : fromTokenDocument(d);
      }),
    consume: (hash, now) =>
      ctx.run(async (): Promise<ConsumeResult> => {
        const { filter, update, options } = consumeToken(hash, now);
        const before = await tokens.findOneAndUpdate(filter, update, { ...options, maxTimeMS });
        if (before === null) return { status: 'missing' };
        return { status: before.used ? 'reused' : 'consumed', record: fromTokenDocument(before) };
        // A lost answer may have marked it used: a blind retry would look like a replay.
      }, 'write'),
    revoke: (hash) => ctx.run(() => done(tokens.deleteOne({ _id: hash }, { maxTimeMS }))),
    revokeFamily: (familyId) => journaledOn(ctx, { op: 'revokeFamily', familyId }),
  };
};
