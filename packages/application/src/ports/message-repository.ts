import type { EventActor, Message, MessageNumber, TicketId } from '@support/domain';
import type { Page } from './ticket-repository.js';

export interface MessageRepository {
  insert(message: Message, by?: EventActor): Promise<void>;
  /** A message by ticket and number, deleted ones included (they carry `deletedAt`). */
  find(ticketId: TicketId, number: MessageNumber): Promise<Message | null>;
  /** Writes the message only if the stored one still has `expectedVersion`; false when it has not. */
  update(message: Message, expectedVersion: number, by?: EventActor): Promise<boolean>;
  /** A page of a ticket's messages that are not deleted, oldest (lowest number) first. */
  list(ticketId: TicketId, includeInternal: boolean, offset: number, limit: number): Promise<Page<Message>>;
}
