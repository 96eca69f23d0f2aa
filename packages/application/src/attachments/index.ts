import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { operationNeeds as needs, scoped } from '../scopes.js';
import { collectOrphans, expireUploads } from './bytes.js';
import { stageUpload, type AttachmentsConfig } from './upload.js';
import { deleteAttachment, getAttachment, listTicketAttachments, openAttachment } from './use-cases.js';

export { collectOrphans, expireUploads } from './bytes.js';
export type { AttachmentsConfig, PendingUpload, UploadInput } from './upload.js';
export type { AttachmentContent, AttachmentRead, TicketAttachmentList } from './use-cases.js';

/** The upload and attachment use cases, each bound to the scope it needs. */
export const attachmentUseCases = (ports: Ports, config: AttachmentsConfig): Application['attachments'] => ({
  upload: scoped(needs.attachments.upload, (actor, input) => stageUpload(ports, config, actor, input)),
  get: scoped(needs.attachments.get, (actor, id) => getAttachment(ports, actor, id)),
  content: scoped(needs.attachments.content, (actor, id) => openAttachment(ports, actor, id)),
  list: scoped(needs.attachments.list, (actor, ticketId, page) => listTicketAttachments(ports, actor, ticketId, page)),
  delete: scoped(needs.attachments.delete, (actor, id) => deleteAttachment(ports, actor, id)),
  sweep: async () => ({ expired: await expireUploads(ports), orphans: await collectOrphans(ports, orphanGraceMs) }),
});

/** Bytes kept this recently are spared by the sweep: another process may be committing their record. */
export const orphanGraceMs = 60_000;
