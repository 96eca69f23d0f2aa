import type { StoredEvent } from '@support/domain';
import type { Database, RootDatabase } from 'lmdb';
import { actorKey, feedTables } from './feed-keys.js';

/** One table's records as a loop reads them. */
type Table = Database<Record<string, unknown>, string>;

/**
 * Format 1 to 2: the kept Idempotency-Key answers and the webhook delivery logs move out of
 * the records the memory engine loads, onto the shelves it reads from LMDB (adapter-memory's
 * shelf.ts). An idempotency record kept its answer inside (`answer`, or null): it now says
 * `answered`, and the answer is the `answers` record of the same key. A webhook's log was one
 * record (`deliveries`, the attempts oldest first): each attempt is now a `deliveryLog` record
 * `[webhook id, n]`, n from 1, and the webhook's `deliverySpans` record names the numbers kept.
 * Runs in one transaction with the format's new number: all or nothing.
 */
export const migrateToFormat2 = (env: RootDatabase, table: (name: string) => Database): void => {
  const idempotency = table('idempotency') as Table;
  const answers = table('answers');
  const oldLogs = table('deliveries') as Database<readonly unknown[], number>;
  const log = table('deliveryLog');
  const spans = table('deliverySpans');
  env.transactionSync(() => {
    for (const { key, value } of [...idempotency.getRange({})]) {
      if (!('answer' in value)) continue;
      const { answer, ...claim } = value;
      if (answer !== null) void answers.put(key, answer);
      void idempotency.put(key, { ...claim, answered: answer !== null });
    }
    for (const { key: id, value: attempts } of [...oldLogs.getRange({})]) {
      attempts.forEach((attempt, i) => void log.put([id, i + 1] as never, attempt));
      void spans.put(id, { first: 1, next: attempts.length + 1 });
      void oldLogs.remove(id);
    }
    void table('meta').put('format', 2);
  });
};

/**
 * Format 2 to 3: the change feed gains its per-actor index (`eventsByActor`, [user id, seq]),
 * built from the kept events, so that `GET /v1/events?actor_id=` reads one user's events
 * without passing over everyone else's. Runs in one transaction with the format's new number.
 */
export const migrateToFormat3 = (env: RootDatabase, table: (name: string) => Database): void => {
  const events = table(feedTables.events) as Database<StoredEvent, number>;
  const byActor = table(feedTables.byActor);
  env.transactionSync(() => {
    for (const { key, value } of events.getRange({})) {
      // An event stored before actors were kept has none: the service's own, not indexed.
      const actor = (value as Partial<StoredEvent>).actor;
      const index = actor === undefined ? null : actorKey({ actor, seq: key });
      if (index !== null) void byActor.put(index, 1);
    }
    void table('meta').put('format', 3);
  });
};
