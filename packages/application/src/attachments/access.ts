import { gone, notFound, type Attachment, type AttachmentId, type DomainError, type Message } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import { loadMessage } from '../messages/use-cases.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';

/** An attachment as the caller reached it, with its message (null: still an upload). */
export interface ReachedAttachment {
  readonly attachment: Attachment;
  readonly message: Message | null;
}

/** The message's refusal, said of the attachment: not found stays not found, gone stays gone. */
const asAttachment = (e: DomainError, id: AttachmentId): DomainError => {
  switch (e._tag) {
    case 'NotFound':
      return notFound('attachment', id);
    case 'Gone':
      return gone('attachment', id);
    default:
      return e;
  }
};

/**
 * An upload or attachment as the caller may reach it (contract §9). An upload exists for its
 * uploader only, until it expires. An attachment is visible exactly when its message is (an
 * internal note's does not exist for a customer; a deleted message's or ticket's is gone), and
 * a deleted attachment is gone.
 */
export const loadAttachment = async (
  ports: Ports,
  actor: Actor,
  id: AttachmentId,
): Promise<Outcome<ReachedAttachment>> => {
  const a = await ports.attachments.find(id);
  if (a === null) return E.left(notFound('attachment', id));
  if (a.message === null) {
    const live = a.deletedAt === null && a.expiresAt !== null && a.expiresAt > ports.clock.now();
    return a.uploaderId === actor.user.id && live
      ? E.right({ attachment: a, message: null })
      : E.left(notFound('attachment', id));
  }
  const m = await loadMessage(ports, actor, a.message.ticketId, a.message.number);
  if (E.isLeft(m)) return E.left(asAttachment(m.left, id));
  if (a.deletedAt !== null) return E.left(gone('attachment', id));
  return E.right({ attachment: a, message: m.right });
};
