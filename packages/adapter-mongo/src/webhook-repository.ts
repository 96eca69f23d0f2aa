import type { DeliveryRecord, WebhookRepository } from '@support/application';
import type { Webhook, WebhookId } from '@support/domain';
import type { MongoContext } from './context.js';
import type { DeliveryDocument, WebhookDocument } from './service-documents.js';

const dateOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

/** The webhook's own fields, as written by inserts and updates (never the lease). */
const fieldsOf = (w: Webhook): Omit<WebhookDocument, '_id' | 'leaseOwner' | 'leaseUntil'> => ({
  url: w.url,
  events: [...w.events],
  description: w.description,
  active: w.active,
  secret: w.secret,
  previousSecret:
    w.previousSecret === undefined
      ? null
      : { secret: w.previousSecret.secret, until: new Date(w.previousSecret.until) },
  lastDeliveredSeq: w.lastDeliveredSeq,
  failedAttempts: w.failedAttempts,
  nextAttemptAt: dateOrNull(w.nextAttemptAt),
  createdAt: new Date(w.createdAt),
  updatedAt: new Date(w.updatedAt),
  version: w.version,
});

const fromDocument = (d: WebhookDocument): Webhook => ({
  id: d._id as WebhookId,
  url: d.url,
  events: [...d.events],
  description: d.description,
  active: d.active,
  secret: d.secret,
  ...(d.previousSecret === undefined || d.previousSecret === null
    ? {}
    : { previousSecret: { secret: d.previousSecret.secret, until: d.previousSecret.until.getTime() } }),
  lastDeliveredSeq: d.lastDeliveredSeq,
  failedAttempts: d.failedAttempts,
  nextAttemptAt: d.nextAttemptAt === null ? null : d.nextAttemptAt.getTime(),
  createdAt: d.createdAt.getTime(),
  updatedAt: d.updatedAt.getTime(),
  version: d.version,
});

const fromDelivery = (d: DeliveryDocument): DeliveryRecord => ({
  webhookId: d.webhookId as WebhookId,
  seq: d.seq,
  deliveryId: d.deliveryId,
  attempt: d.attempt,
  attemptedAt: d.attemptedAt.getTime(),
  status: d.status,
  durationMs: d.durationMs,
  error: d.error,
  response: d.response,
  nextAttemptAt: d.nextAttemptAt === null ? null : d.nextAttemptAt.getTime(),
});

export const mongoWebhookRepository = (ctx: MongoContext): WebhookRepository => {
  const opts = { maxTimeMS: ctx.maxTimeMS };
  return {
    insert: (w) =>
      ctx.run(async () => {
        await ctx.webhooks.insertOne({ _id: w.id, ...fieldsOf(w), leaseOwner: null, leaseUntil: null }, opts);
      }, 'write'),
    findById: (id) =>
      ctx.run(async () => {
        const d = await ctx.webhooks.findOne({ _id: id }, opts);
        return d === null ? null : fromDocument(d);
      }),
    list: (offset, limit) =>
      ctx.run(async () => {
        const [docs, total] = await Promise.all([
          ctx.webhooks.find({}, opts).sort({ _id: 1 }).skip(offset).limit(limit).toArray(),
          ctx.webhooks.countDocuments({}, opts),
        ]);
        return { items: docs.map(fromDocument), total };
      }),
    update: (w, expectedVersion) =>
      ctx.run(async () => {
        const r = await ctx.webhooks.updateOne({ _id: w.id, version: expectedVersion }, { $set: fieldsOf(w) }, opts);
        return r.matchedCount === 1 ? 'ok' : 'version_mismatch';
      }, 'write'),
    delete: (id) =>
      ctx.run(async () => {
        const r = await ctx.webhooks.deleteOne({ _id: id }, opts);
        await ctx.deliveries.deleteMany({ webhookId: id }, opts);
        return r.deletedCount === 1;
      }, 'write'),
    due: (now, limit) =>
      ctx.run(async () => {
        const docs = await ctx.webhooks
          .find({ active: true, $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: new Date(now) } }] }, opts)
          .sort({ _id: 1 })
          .limit(limit)
          .toArray();
        return docs.map(fromDocument);
      }),
    lease: (id, owner, now, until) =>
      ctx.run(async () => {
        const r = await ctx.webhooks.updateOne(
          { _id: id, $or: [{ leaseOwner: null }, { leaseOwner: owner }, { leaseUntil: { $lte: new Date(now) } }] },
          { $set: { leaseOwner: owner, leaseUntil: new Date(until) } },
          opts,
        );
        return r.matchedCount === 1;
      }),
    release: (id, owner) =>
      ctx.run(async () => {
        await ctx.webhooks.updateOne(
          { _id: id, leaseOwner: owner },
          { $set: { leaseOwner: null, leaseUntil: null } },
          opts,
        );
      }),
    recordDelivery: (r, keep) =>
      ctx.run(async () => {
        if ((await ctx.webhooks.countDocuments({ _id: r.webhookId }, { ...opts, limit: 1 })) === 0) return;
        await ctx.deliveries.insertOne(
          { ...r, attemptedAt: new Date(r.attemptedAt), nextAttemptAt: dateOrNull(r.nextAttemptAt) },
          opts,
        );
        // Trim to the newest `keep`: everything older than the keep-th newest goes.
        const boundary = await ctx.deliveries
          .find({ webhookId: r.webhookId }, opts)
          .sort({ attemptedAt: -1, _id: -1 })
          .skip(keep - 1)
          .limit(1)
          .next();
        if (boundary !== null) {
          await ctx.deliveries.deleteMany(
            {
              webhookId: r.webhookId,
              $or: [
                { attemptedAt: { $lt: boundary.attemptedAt } },
                { attemptedAt: boundary.attemptedAt, _id: { $lt: boundary._id } },
              ],
            },
            opts,
          );
        }
      }),
    deliveries: (id, limit) =>
      ctx.run(async () => {
        const docs = await ctx.deliveries
          .find({ webhookId: id }, opts)
          .sort({ attemptedAt: -1, _id: -1 })
          .limit(limit)
          .toArray();
        return docs.map(fromDelivery);
      }),
  };
};
