import type { CompleteSort, EventActor, Ticket, TicketFilter, TicketId, UserId, GroupId } from '@support/domain';

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
  /**
   * Puts a renamed customer's new name on every ticket of theirs that does not carry it yet
   * (the domain's renameCustomer on each, at `now`); a ticket already carrying it is left as
   * it is, so that running the rename again changes only what an interrupted run missed.
   */
  renameCustomer(customerId: UserId, name: string, now: number, by?: EventActor): Promise<void>;
  /** Unassigns every ticket assigned to this user (the domain's unassignTicket on each, at `now`). */
  unassignUser(userId: UserId, now: number, by?: EventActor): Promise<void>;
  /** Removes this group from every ticket in it (the domain's ungroupTicket on each, at `now`). */
  clearGroup(groupId: GroupId, now: number, by?: EventActor): Promise<void>;
}
