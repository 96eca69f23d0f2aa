import { feedExpired, type StoredEvent, type TicketFieldDefinition, type UserId } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import { acceptQuery, type DecodedQuery } from '../decoded.js';
import { withDeadline } from '../deadline.js';
import { requireRole } from '../policy.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';

/** GET /v1/events, decoded: the cursor, the page size and how long to wait for news. */
export interface EventsQuery {
  readonly after: number;
  readonly perPage: number;
  readonly waitSeconds: number;
  /** Only the changes this user made (contract §8.3); absent: everyone's. The cursor is still the global seq. */
  readonly actorId?: UserId;
}

export const eventsQueryBounds = {
  perPage: { min: 1, max: 100, fallback: 30 },
  waitSeconds: { min: 0, max: 30 },
} as const;

export interface EventPage {
  readonly items: readonly StoredEvent[];
  /** The cursor of the next page: the last seq in this one, or the same `after` when it is empty. */
  readonly next: number;
  /** The custom field definitions now (a ticket's `custom_fields` in an event's data is keyed by their keys). */
  readonly fields: readonly TicketFieldDefinition[];
}

/**
 * The events after a cursor, oldest first (contract §7.3). When there are none yet, waits up to
 * `waitSeconds` for one (holding no CPU: the store wakes the waiter) and ends early when
 * `shutdown` aborts. A cursor older than what is kept is refused, naming the oldest kept seq,
 * so a consumer never silently skips events.
 */
export const listEvents = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedQuery<EventsQuery>,
  shutdown: AbortSignal,
): Promise<Outcome<EventPage>> => {
  const denied = requireRole(actor, ['agent', 'admin'], 'read the change feed');
  if (denied !== null) return E.left(denied);
  const accepted = acceptQuery(decoded);
  if (E.isLeft(accepted)) return accepted;
  const query = accepted.right;
  const { oldest, newest } = await ports.events.bounds();
  // Events after `after` are all kept when the oldest kept one is at most after + 1.
  const firstKept = oldest ?? newest + 1;
  if (query.after + 1 < firstKept) return E.left(feedExpired(firstKept));
  const read = (): Promise<readonly StoredEvent[]> =>
    query.actorId === undefined
      ? ports.events.after(query.after, query.perPage)
      : ports.events.after(query.after, query.perPage, query.actorId);
  let items = await read();
  if (items.length === 0 && query.waitSeconds > 0 && !shutdown.aborted) {
    items = await withDeadline(shutdown, query.waitSeconds * 1000, async (signal) => {
      // Someone else's change wakes the wait too: with actor_id, wait again past it until this actor's arrives or the time is up.
      let seen = Math.max(query.after, newest);
      for (;;) {
        await ports.events.waitFor(seen, signal);
        const found = await read();
        if (found.length > 0 || signal.aborted || query.actorId === undefined) return found;
        seen = (await ports.events.bounds()).newest;
      }
    });
  }
  return E.right({ items, next: items[items.length - 1]?.seq ?? query.after, fields: await ports.ticketFields.list() });
};

export interface EventsConfig {
  /** EVENTS_RETENTION_DAYS: events older than this are forgotten. */
  readonly retentionDays: number;
}

export const forgetOldEvents = (ports: Ports, config: EventsConfig): Promise<void> =>
  ports.events.forget(ports.clock.now() - config.retentionDays * 86_400_000);
