import type { EventLog } from '@support/application';
import { systemActor, type StoredEvent } from '@support/domain';
import type { MongoContext } from './context.js';
import { eventCounterId } from './event-append.js';
import type { EventDocument } from './service-documents.js';

const fromDocument = (d: EventDocument): StoredEvent => ({
  seq: d._id,
  type: d.type,
  subject: d.subject,
  actor: d.actor ?? systemActor,
  occurredAt: d.occurredAt.getTime(),
  data: d.data,
});

/** How often a waiting reader looks for news written by any process. */
const pollMs = 200;

export const mongoEventLog = (ctx: MongoContext): EventLog => {
  const opts = { maxTimeMS: ctx.maxTimeMS };
  // One poller for all waiting readers of this process: each round reads the newest seq once.
  const waiters = new Set<{ readonly after: number; readonly wake: () => void }>();
  let polling = false;
  const poll = async (): Promise<void> => {
    polling = true;
    try {
      while (waiters.size > 0) {
        await new Promise((r) => setTimeout(r, pollMs).unref());
        let newest = 0;
        try {
          newest =
            (
              await ctx.run(() =>
                ctx.events.find({}, opts).sort({ _id: -1 }).limit(1).project<{ _id: number }>({ _id: 1 }).next(),
              )
            )?._id ?? 0;
        } catch {
          continue; // the store is away: waiters keep waiting until their time is up
        }
        for (const w of [...waiters]) if (newest > w.after) w.wake();
      }
    } finally {
      polling = false;
    }
  };
  return {
    // With an actor: the events_actor index ({actor.id, _id}) reads only that user's events.
    after: (after, limit, actorId) =>
      ctx.run(async () =>
        (
          await ctx.events
            .find(
              actorId === undefined ? { _id: { $gt: after } } : { 'actor.id': actorId, _id: { $gt: after } },
              actorId === undefined ? opts : { ...opts, hint: 'events_actor' },
            )
            .sort({ _id: 1 })
            .limit(limit)
            .toArray()
        ).map(fromDocument),
      ),
    bounds: () =>
      ctx.run(async () => {
        const [oldest, counter] = await Promise.all([
          ctx.events.find({}, opts).sort({ _id: 1 }).limit(1).project<{ _id: number }>({ _id: 1 }).next(),
          ctx.counters.findOne({ _id: eventCounterId }, opts),
        ]);
        return { oldest: oldest?._id ?? null, newest: counter?.seq ?? 0 };
      }),
    waitFor: (after, signal) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) {
          resolve();
          return;
        }
        const waiter = {
          after,
          wake: () => {
            waiters.delete(waiter);
            signal.removeEventListener('abort', waiter.wake);
            resolve();
          },
        };
        waiters.add(waiter);
        signal.addEventListener('abort', waiter.wake, { once: true });
        if (!polling) void poll();
      }),
    forget: (before) =>
      ctx.run(async () => {
        // From the oldest on, so the kept events stay one contiguous run of seqs.
        const firstKept = await ctx.events
          .find({ occurredAt: { $gte: new Date(before) } }, opts)
          .sort({ _id: 1 })
          .limit(1)
          .project<{ _id: number }>({ _id: 1 })
          .next();
        await ctx.events.deleteMany(firstKept === null ? {} : { _id: { $lt: firstKept._id } }, opts);
      }),
  };
};
