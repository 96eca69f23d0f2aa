import type { ChangeEvent } from '@support/domain';
import type { ClientSession, Collection } from 'mongodb';
import type { CounterDocument } from './documents.js';
import type { EventDocument } from './service-documents.js';

/** The counter document that numbers events: every append moves it, inside the write's transaction. */
export const eventCounterId = 'events';

/** The collections an append writes. */
export interface EventCollections {
  readonly counters: Collection<CounterDocument>;
  readonly events: Collection<EventDocument>;
}

/**
 * Appends the events of a write inside its transaction, as the transaction's last writes. The
 * counter is written by every transaction that appends, so two of them conflict on it
 * (WriteConflict: the later one is run again after the other commits, transactions.ts): seqs
 * are taken in commit order, and a reader that sees seq n sees every seq below it (the
 * majority commit point moves in oplog order, and each append's commit follows the one before
 * it). Called last, so the counter is held only from here to the commit. The start has made
 * the counter (startup.ts); an upsert racing another's insert of it would conflict here.
 */
export const appendEvents = async (
  c: EventCollections,
  session: ClientSession,
  changes: readonly ChangeEvent[],
  maxTimeMS: number,
): Promise<void> => {
  if (changes.length === 0) return;
  const counter = await c.counters.findOneAndUpdate(
    { _id: eventCounterId },
    { $inc: { seq: changes.length } },
    { upsert: true, returnDocument: 'after', session, maxTimeMS },
  );
  if (counter === null) throw new Error('the event counter was not returned by its upsert');
  const first = counter.seq - changes.length + 1;
  await c.events.insertMany(
    changes.map((change, i) => ({
      _id: first + i,
      type: change.type,
      subject: change.subject,
      actor: change.actor,
      occurredAt: new Date(change.occurredAt),
      data: change.data,
    })),
    { session, maxTimeMS },
  );
};
