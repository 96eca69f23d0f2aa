import type { Attachment, AttachmentSummary, MessageRef, UserId } from '@support/domain';
import { link, timestamp } from './common.js';
import type { Urls } from './urls.js';

// Files (contract §9). On a message: what a front end needs to show and fetch it. On its own
// (GET /v1/attachments/{id}, an upload's answer, the ticket's list): that, plus who uploaded it,
// where it belongs, when it was made, when an upload expires, and whether it was scanned.

/** An attachment as its message lists it. */
export const attachmentOnMessage = (urls: Urls, a: AttachmentSummary): Record<string, unknown> => ({
  id: a.id,
  url: urls.attachment(a.id),
  content_url: urls.attachmentContent(a.id),
  filename: a.filename,
  content_type: a.contentType,
  size: a.size,
  sha256: a.sha256,
});

/** An upload or attachment on its own; `message` and `ticket` are null while it is an upload. */
export const attachmentRepresentation = (
  urls: Urls,
  a: AttachmentSummary & { readonly expiresAt: number | null },
  uploaderId: UserId,
  message: MessageRef | null,
): Record<string, unknown> => ({
  ...attachmentOnMessage(urls, a),
  scan: a.scan,
  uploader: link(uploaderId, urls.user(uploaderId)),
  message: message === null ? null : link(message.number, urls.message(message.ticketId, message.number)),
  ticket: message === null ? null : link(message.ticketId, urls.ticket(message.ticketId)),
  created_at: timestamp(a.createdAt),
  expires_at: a.expiresAt === null ? null : timestamp(a.expiresAt),
});

export const recordRepresentation = (urls: Urls, a: Attachment): Record<string, unknown> =>
  attachmentRepresentation(urls, a, a.uploaderId, a.message);
