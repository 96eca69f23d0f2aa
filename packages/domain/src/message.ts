import type { AttachmentSummary } from './attachment.js';
import type { MessageCreateInput, MessagePatchInput } from './inputs.js';
import type { MessageNumber, TicketId, UserId } from './ids.js';
import { revise } from './revision.js';
import { upgrading, type Stored, type Upgrades } from './upgrade.js';

export interface Message {
  readonly ticketId: TicketId;
  /** The message's id inside its ticket: 1, 2, 3... never reused. */
  readonly number: MessageNumber;
  readonly body: string;
  readonly authorId: UserId;
  /** Internal notes are visible to agents and admins only. */
  readonly internal: boolean;
  /** The files it carries, in the order they were given (contract §9); deleted ones leave the list. */
  readonly attachments: readonly AttachmentSummary[];
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly deletedAt: number | null;
  readonly version: number;
}

/** The fields every stored message has had since the stores' first format. */
type MessageFormat1 =
  'ticketId' | 'number' | 'body' | 'authorId' | 'internal' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'version';

/** What a message stored before a field existed is read back with: one entry per field added since format 1. */
export const messageUpgrades: Upgrades<Message, MessageFormat1> = {
  // A message stored before attachments existed (contract §9) has none.
  attachments: [],
};
export type StoredMessage = Stored<Message, MessageFormat1>;
/** The upgrade step every store reads a stored message through. */
export const upgradeMessage = upgrading<Message, MessageFormat1>(messageUpgrades);

export const createMessage = (
  ticketId: TicketId,
  number: MessageNumber,
  input: MessageCreateInput,
  authorId: UserId,
  now: number,
  attachments: readonly AttachmentSummary[] = [],
): Message => ({
  ticketId,
  number,
  body: input.body,
  authorId,
  internal: input.internal ?? false,
  attachments,
  createdAt: now,
  updatedAt: now,
  deletedAt: null,
  version: 1,
});

export interface MessageChanges {
  readonly body: string;
  readonly internal: boolean;
}

export const replacementMessageChanges = (input: MessageCreateInput): MessageChanges => ({
  body: input.body,
  internal: input.internal ?? false,
});

export const patchMessageChanges = (m: Message, input: MessagePatchInput): MessageChanges => ({
  body: input.body ?? m.body,
  internal: input.internal === undefined ? m.internal : (input.internal ?? false),
});

export const applyMessageChanges = (m: Message, c: MessageChanges, now: number): Message =>
  m.body === c.body && m.internal === c.internal ? m : revise(m, now, { body: c.body, internal: c.internal });

export const deleteMessage = (m: Message, now: number): Message => revise(m, now, { deletedAt: now });

/** The message without one of its attachments (deleting an attachment is a change of its message). */
export const withoutAttachment = (m: Message, id: number, now: number): Message =>
  revise(m, now, { attachments: m.attachments.filter((a) => a.id !== id) });
