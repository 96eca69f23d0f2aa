import type {
  AttachmentId,
  AttachmentSummary,
  EventActor,
  Message,
  MessageNumber,
  TicketId,
  UserId,
} from '@support/domain';
import type { Page } from './ticket-repository.js';

/** One attachment of a ticket's messages, with the message holding it. */
export interface TicketAttachment {
  readonly number: MessageNumber;
  /** The message's author, who uploaded the file. */
  readonly authorId: UserId;
  readonly attachment: AttachmentSummary;
}

export interface MessageRepository {
  /**
   * Stores a new message. When it lists attachments, each must be an upload its author may
   * attach at `message.createdAt` (domain `isAttachable`): those uploads become its attachments
   * in the same write. Otherwise nothing is stored, and the answer names the refused ids
   * (empty: stored).
   */
  insert(message: Message, by?: EventActor): Promise<readonly AttachmentId[]>;
  /** A message by ticket and number, deleted ones included (they carry `deletedAt`). */
  find(ticketId: TicketId, number: MessageNumber): Promise<Message | null>;
  /**
   * Writes the message only if the stored one still has `expectedVersion`; false when it has not.
   * An attachment the stored message lists and `message` does not is deleted in the same write
   * (its record's `deletedAt` becomes `message.updatedAt`).
   */
  update(message: Message, expectedVersion: number, by?: EventActor): Promise<boolean>;
  /** A page of a ticket's messages that are not deleted, oldest (lowest number) first. */
  list(ticketId: TicketId, includeInternal: boolean, offset: number, limit: number): Promise<Page<Message>>;
  /**
   * A page of the attachments of a ticket's messages that are not deleted (internal notes'
   * only with `includeInternal`): by message number, then in each message's order.
   */
  attachments(
    ticketId: TicketId,
    includeInternal: boolean,
    offset: number,
    limit: number,
  ): Promise<Page<TicketAttachment>>;
}
