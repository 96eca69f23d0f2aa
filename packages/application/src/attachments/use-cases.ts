import {
  conflict,
  pageOffset,
  withoutAttachment,
  type Attachment,
  type AttachmentId,
  type Message,
  type PageRequest,
  type TicketId,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import { byActor } from '../actor.js';
import { acceptPage, type DecodedQuery } from '../decoded.js';
import { requireRole, staff } from '../policy.js';
import type { ByteRange } from '../ports/blob-store.js';
import type { Ports } from '../ports/index.js';
import type { TicketAttachment } from '../ports/message-repository.js';
import type { Outcome } from '../shared.js';
import { loadTicket } from '../tickets/access.js';
import { versionedWrite } from '../versioned-write.js';
import type { ListResult } from '../views.js';
import { loadAttachment, type ReachedAttachment } from './access.js';
import { eraseUnreferenced } from './bytes.js';

/** An attachment's bytes as the caller may read them: its record, and the bytes (all, or a range) when asked. */
export interface AttachmentContent {
  readonly attachment: Attachment;
  open(range?: ByteRange): Promise<AsyncIterable<Uint8Array>>;
}

export type TicketAttachmentList = ListResult<TicketAttachment>;

/**
 * An attachment as read: its record, and when its representation last changed: when its
 * message took it (its message and ticket links set, its expiry gone), else when it was
 * uploaded. Its Last-Modified (contract §6), so that If-Modified-Since sees the attaching.
 */
export interface AttachmentRead {
  readonly attachment: Attachment;
  readonly changedAt: number;
}

export const getAttachment = async (ports: Ports, actor: Actor, id: AttachmentId): Promise<Outcome<AttachmentRead>> =>
  E.map((r: ReachedAttachment): AttachmentRead => ({
    attachment: r.attachment,
    changedAt: r.message === null ? r.attachment.createdAt : Math.max(r.attachment.createdAt, r.message.createdAt),
  }))(await loadAttachment(ports, actor, id));

export const openAttachment = async (
  ports: Ports,
  actor: Actor,
  id: AttachmentId,
): Promise<Outcome<AttachmentContent>> => {
  const reached = await loadAttachment(ports, actor, id);
  if (E.isLeft(reached)) return reached;
  const attachment = reached.right.attachment;
  return E.right({
    attachment,
    open: async (range) => {
      const bytes = await ports.blobs.open(attachment.blobKey, range);
      // A record is committed only after its bytes are durable (BlobStore.keep): this is a defect.
      if (bytes === null) throw new Error(`the bytes of attachment ${attachment.id} are missing`);
      return bytes;
    },
  });
};

/** The attachments of the ticket's messages the caller may see, by message, oldest first. */
export const listTicketAttachments = async (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  decoded: DecodedQuery<PageRequest>,
): Promise<Outcome<TicketAttachmentList>> => {
  const page = acceptPage(decoded);
  if (E.isLeft(page)) return page;
  const ticket = await loadTicket(ports, actor, ticketId);
  if (E.isLeft(ticket)) return ticket;
  const found = await ports.messages.attachments(ticketId, staff(actor), pageOffset(page.right), page.right.perPage);
  return E.right({ items: found.items, total: found.total, page: page.right });
};

/**
 * Deletes an attachment (redaction; agents and admins): its message no longer lists it (one
 * message.updated event) and it answers 410; its bytes go once nothing names them. An upload
 * not yet attached is removed by its uploader the same way.
 */
export const deleteAttachment = async (ports: Ports, actor: Actor, id: AttachmentId): Promise<Outcome<Attachment>> => {
  const reached = await loadAttachment(ports, actor, id);
  if (E.isLeft(reached)) return reached;
  const refused = requireRole(actor, ['agent', 'admin'], 'delete attachments');
  if (refused !== null) return E.left(refused);
  const { attachment, message } = reached.right;
  if (message === null) {
    if (!(await ports.attachments.removeUpload(id)))
      return E.left(conflict('the upload was attached to a message meanwhile; repeat the request'));
  } else {
    const written = await versionedWrite<Message>(
      {
        loaded: message,
        load: async () =>
          E.map((r: { readonly message: Message | null }) => r.message as Message)(
            await loadAttachment(ports, actor, id),
          ),
        change: (current) => E.right(withoutAttachment(current, id, ports.clock.now())),
        write: (next, current) => ports.messages.update(next, current.version, byActor(actor)),
      },
      {},
    );
    if (E.isLeft(written)) return written;
  }
  await eraseUnreferenced(ports, attachment.blobKey);
  return E.right(attachment);
};
