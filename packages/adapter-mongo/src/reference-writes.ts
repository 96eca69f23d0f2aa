import { ticketEvent, userEvent, type ChangeEvent, type EventActor } from '@support/domain';
import type { ClientSession, Collection, Document, Filter, UpdateFilter } from 'mongodb';
import {
  fromTicketDocument,
  fromUserDocument,
  ticketProjection,
  type StoredTicket,
  type TicketDocument,
  type UserDocument,
} from './documents.js';
import { appendEvents, type EventCollections } from './event-append.js';
import { inTransaction, type SessionSource, type TransactionLimits } from './transactions.js';

// Changes through a reference (a customer's name on their tickets, a deleted user or group
// taken off tickets, a deleted group off its members) reach any number of documents. Each is
// done in batches, each batch one transaction that changes its documents and appends one event
// for each live one, read back as written after the update (so the event holds exactly what
// the update made, $max on updatedAt included). A soft-deleted ticket is changed too (its
// reference must go) but has no representation left, so it has no event.
//
// The batch is picked by the write's own idempotent filter (bulk-writes.ts): a batch committed
// no longer matches it, so the next batch, a re-run after a failure or the repair pass after a
// crash picks up exactly the documents not yet changed, and each changed document has its event
// committed with it, never twice. A batch bounds a transaction's size and lifetime (MongoDB
// refuses one that outgrows its cache or lives past 60 s) however many documents a reference
// reaches; readers may see the batches of one bulk write one after the other.

/** Documents changed, and events appended, per transaction. */
export const referenceBatchSize = 200;

export interface ReferenceWriteContext extends EventCollections {
  readonly tickets: Collection<TicketDocument>;
  readonly users: Collection<UserDocument>;
  readonly sessions: SessionSource;
}

/** What a batch changes: the write's idempotent filter and its update. */
export interface BatchPlan<D extends Document> {
  readonly filter: Filter<D>;
  readonly update: UpdateFilter<D> | Document[];
}

/**
 * The plan of each batch, made inside its transaction: most writes have one fixed plan; a
 * rename reads the customer in the batch's snapshot, so that it always puts the newest name.
 */
export type BatchPlanner<D extends Document> = (session: ClientSession, maxTimeMS: number) => Promise<BatchPlan<D>>;

/** A planner for a write whose filter and update never change. */
export const fixedPlan =
  <D extends Document>(filter: Filter<D>, update: UpdateFilter<D> | Document[]): BatchPlanner<D> =>
  () =>
    Promise.resolve({ filter, update });

interface Batched<D extends Document> {
  readonly collection: Collection<D>;
  readonly plan: BatchPlanner<D>;
  /** The index the filter's first field is bound in (every batch read is hinted). */
  readonly hint: string;
  /** The changed documents, read back in the transaction, as events. */
  readonly eventsOf: (
    collection: Collection<D>,
    ids: readonly number[],
    session: ClientSession,
    maxTimeMS: number,
    by: EventActor,
  ) => Promise<ChangeEvent[]>;
}

/** Runs the batches until one finds fewer documents than a full batch; returns the number of documents changed. */
const inBatches = async <D extends Document & { _id: number }>(
  c: ReferenceWriteContext,
  w: Batched<D>,
  limits: TransactionLimits,
  by: EventActor,
): Promise<number> => {
  const { maxTimeMS } = limits;
  let total = 0;
  for (;;) {
    const changed = await inTransaction(c.sessions, limits, async (session) => {
      const { filter, update } = await w.plan(session, maxTimeMS);
      const picked = await w.collection
        .find(filter, { projection: { _id: 1 }, limit: referenceBatchSize, hint: w.hint, session, maxTimeMS })
        .toArray();
      const ids = picked.map((d) => d._id);
      if (ids.length === 0) return 0;
      // The filter again: only what still matches in this transaction's snapshot is changed.
      await w.collection.updateMany({ ...filter, _id: { $in: ids } }, update, { session, maxTimeMS });
      await appendEvents(c, session, await w.eventsOf(w.collection, ids, session, maxTimeMS, by), maxTimeMS);
      return ids.length;
    });
    total += changed;
    if (changed < referenceBatchSize) return total;
  }
};

const ticketEvents = async (
  tickets: Collection<TicketDocument>,
  ids: readonly number[],
  session: ClientSession,
  maxTimeMS: number,
  by: EventActor,
): Promise<ChangeEvent[]> => {
  const docs = await tickets
    .find<StoredTicket>(
      { _id: { $in: [...ids] } },
      { projection: ticketProjection, sort: { _id: 1 }, session, maxTimeMS },
    )
    .toArray();
  return docs
    .map(fromTicketDocument)
    .filter((t) => t.deletedAt === null)
    .map((t) => ticketEvent('updated', t, t.updatedAt, by));
};

const userEvents = async (
  users: Collection<UserDocument>,
  ids: readonly number[],
  session: ClientSession,
  maxTimeMS: number,
  by: EventActor,
): Promise<ChangeEvent[]> => {
  const docs = await users.find({ _id: { $in: [...ids] } }, { sort: { _id: 1 }, session, maxTimeMS }).toArray();
  return docs.map(fromUserDocument).map((u) => userEvent('updated', u, u.updatedAt, by));
};

/** Tickets matching each batch's filter changed by its update, in batches, each with its events (made by `by`). */
export const changeTickets = (
  c: ReferenceWriteContext,
  plan: BatchPlanner<TicketDocument>,
  hint: string,
  limits: TransactionLimits,
  by: EventActor,
): Promise<number> => inBatches(c, { collection: c.tickets, plan, hint, eventsOf: ticketEvents }, limits, by);

/** Users matching each batch's filter changed by its update, in batches, each with its events (made by `by`). */
export const changeUsers = (
  c: ReferenceWriteContext,
  plan: BatchPlanner<UserDocument>,
  hint: string,
  limits: TransactionLimits,
  by: EventActor,
): Promise<number> => inBatches(c, { collection: c.users, plan, hint, eventsOf: userEvents }, limits, by);
