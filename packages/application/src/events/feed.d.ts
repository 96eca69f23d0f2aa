import { type StoredEvent } from '@support/domain';
import type { Actor } from '../actor.js';
import { type DecodedQuery } from '../decoded.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
/** GET /v1/events, decoded: the cursor, the page size and how long to wait for news. */
export interface EventsQuery {
    readonly after: number;
    readonly perPage: number;
    readonly waitSeconds: number;
}
export declare const eventsQueryBounds: {
    readonly perPage: {
        readonly min: 1;
        readonly max: 100;
        readonly fallback: 30;
    };
    readonly waitSeconds: {
        readonly min: 0;
        readonly max: 30;
    };
};
export interface EventPage {
    readonly items: readonly StoredEvent[];
    /** The cursor of the next page: the last seq in this one, or the same `after` when it is empty. */
    readonly next: number;
}
/**
 * The events after a cursor, oldest first (contract §7.3). When there are none yet, waits up to
 * `waitSeconds` for one (holding no CPU: the store wakes the waiter) and ends early when
 * `shutdown` aborts. A cursor older than what is kept is refused, naming the oldest kept seq,
 * so a consumer never silently skips events.
 */
export declare const readEvents: (ports: Ports, actor: Actor, decoded: DecodedQuery<EventsQuery>, shutdown: AbortSignal) => Promise<Outcome<EventPage>>;
export interface EventsConfig {
    /** EVENTS_RETENTION_DAYS: events older than this are forgotten. */
    readonly retentionDays: number;
}
export declare const forgetOldEvents: (ports: Ports, config: EventsConfig) => Promise<void>;
//# sourceMappingURL=feed.d.ts.map