import { eventActorId, type StoredEvent } from '@support/domain';

// The change feed's tables and keys, apart from the feed itself so that the data format's
// migrations (migrate.ts) can write them without importing the feed.

/**
 * The change feed's tables: events by seq; the newest seq ever given (kept when every event is
 * forgotten); and the events each user made, keyed [user id, seq] (contract §8.3's actor_id:
 * a filtered read walks that user's keys only, never the others' events).
 */
export const feedTables = { events: 'events', newest: 'feed', byActor: 'eventsByActor' } as const;
export const newestKey = 'newest';

/** The key of an event in the per-actor index, or null for the service's own events (no user made them). */
export const actorKey = (event: Pick<StoredEvent, 'actor' | 'seq'>): [number, number] | null => {
  const id = eventActorId(event.actor);
  return id === null ? null : [id, event.seq];
};
