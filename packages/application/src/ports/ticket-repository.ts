import type { CompleteSort, EventActor, Ticket, TicketFilter, TicketId } from '@support/domain';

/**
 * Every list of every store (`search`, `list`) serves pages that start before the domain's
 * `pageBounds.maxOffset`: an offset at or past it rejects with a RangeError, so that no
 * request makes a store walk further (the use cases refuse such pages first, as PageTooDeep).
 */
export interface Page<T> {
  readonly items: readonly T[];
  /** How many items match in all, on every page. */
  readonly total: number;
}

/**
 * Every write of a ticket, message, user or group takes `by`, who made it: the change feed
 * records it as the events' actor (contract §8.3), a change through a reference included.
 * Omitted, the service made the change itself ({type: "system"}).
 */
export interface TicketRepository {
  /** Stores a new ticket; its id comes from the IdSequence and is never reused. */
  insert(ticket: Ticket, by?: EventActor): Promise<void>;
  /** A ticket by id, deleted ones included (they carry `deletedAt`). */
  findById(id: TicketId): Promise<Ticket | null>;
  /** Writes the ticket only if the stored one still has `expectedVersion`; false when it has not. */
  update(ticket: Ticket, expectedVersion: number, by?: EventActor): Promise<boolean>;
  /**
   * One page of the tickets that match the filter (`matchesTicket`), in the complete
   * order `sort` (`compareTickets`), and how many match in all. Deleted tickets never match.
   * A write is visible to the next search as soon as it has been answered.
   */
  search(filter: TicketFilter, sort: CompleteSort, offset: number, limit: number): Promise<Page<Ticket>>;
  /** How many live tickets hold one of these values in a custom field (an option a change would remove). */
  countHolding(fieldId: number, values: readonly string[]): Promise<number>;
}
