import type { EventLog } from '@support/application';
import { systemActor, type ChangeEvent, type EventActor, type EventData, type EventSubject, type EventType, type StoredEvent } from '@support/domain';
import type { ClientSession } from 'mongodb';
import type { MongoContext } from './context.js';

/** One change of the feed; `_id` is its seq. Records inside `data` keep the domain's epoch-ms numbers. */
export interface EventDocument {
  _id: number;
  type: EventType;
  subject: EventSubject;
  /** Who made the change (contract §8.3); absent on events appended before actors were kept: the service's own. */
  actor?: EventActor;
  occurredAt: Date;
  data: EventData | null;
}

/** The counter document that numbers events: every append moves it, inside the write's transaction. */
export const eventCounterId = 'events';

const fromDocument = (d: EventDocument): StoredEvent => ({ seq: d._id, type: d.type, subject: d.subject, actor: d.actor ?? systemActor, occurredAt: d.occurredAt.getTime(), data: d.data });

/** The collections an append writes. */
export type EventCollections = Pick<MongoContext, 'counters' | 'events'>;

/**
 * Appends the events of a write inside its transaction, as the transaction's last writes. The
 * counter is written by every transaction that appends, so two of them conflict on it
 * (WriteConflict: the later one is run again after the other commits, transactions.ts): seqs
 * are taken in commit order, and a reader that sees seq n sees every seq below it (the
 * majority commit point moves in oplog order, and each append's commit follows the one before
 * it). Called last, so the counter is held only from here to the commit.
 */
export const appendEvents = async (c: EventCollections, session: ClientSession, changes: readonly ChangeEvent[], maxTimeMS: number): Promise<void> => {
  if (changes.length === 0) return;
  const counter = await c.counters.findOneAndUpdate(
    { _id: eventCounterId },
    { $inc: { seq: changes.length } },
    { upsert: true, returnDocument: 'after', session, maxTimeMS },
  );
  if (counter === null) throw new Error('the event counter was not returned by its upsert');
  const first = counter.seq - changes.length + 1;
  await c.events.insertMany(
    changes.map((change, i) => ({ _id: first + i, type: change.type, subject: change.subject, actor: change.actor, occurredAt: new Date(change.occurredAt), data: change.data })),
    { session, maxTimeMS },
  );
};

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
          newest = (await ctx.run(() => ctx.events.find({}, opts).sort({ _id: -1 }).limit(1).project<{ _id: number }>({ _id: 1 }).next()))?._id ?? 0;
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
            .find(actorId === undefined ? { _id: { $gt: after } } : { 'actor.id': actorId, _id: { $gt: after } }, actorId === undefined ? opts : { ...opts, hint: 'events_actor' })
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
        const firstKept = await ctx.events.find({ occurredAt: { $gte: new Date(before) } }, opts).sort({ _id: 1 }).limit(1).project<{ _id: number }>({ _id: 1 }).next();
        await ctx.events.deleteMany(firstKept === null ? {} : { _id: { $lt: firstKept._id } }, opts);
      }),
  };
};
