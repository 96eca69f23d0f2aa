import type { StoredEvent, UserId } from '@support/domain';

/**
 * The change feed (contract §7.3). The store appends to it itself, in the same atomic step as
 * every write of a ticket, message, user or group (one event per changed resource, references
 * included), so there is no change without its event and no event without its change. `seq`
 * counts 1, 2, 3... in commit order, and a reader never finds later an event at or below a
 * seq it has already seen.
 */
export interface EventLog {
  /**
   * The kept events after `after`, oldest first, at most `limit`; with `actorId`, only those
   * made by that user (contract §8.3), found without reading the others (an index per actor).
   */
  after(after: number, limit: number, actorId?: UserId): Promise<readonly StoredEvent[]>;
  /** The oldest kept seq (null when none is kept) and the newest seq ever given (0 when none). */
  bounds(): Promise<{ readonly oldest: number | null; readonly newest: number }>;
  /**
   * Resolves once an event after `after` may exist (soon after it was appended, by any
   * process), or when `signal` aborts; never rejects for either. Once resolved it leaves
   * nothing attached to `signal`, so one signal can serve wait after wait (the webhook worker's).
   */
  waitFor(after: number, signal: AbortSignal): Promise<void>;
  /** Forgets the events that occurred before `before` (epoch ms). */
  forget(before: number): Promise<void>;
}
