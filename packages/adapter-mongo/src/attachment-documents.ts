import type {
  Attachment,
  AttachmentId,
  AttachmentSummary,
  MessageNumber,
  ScanVerdict,
  TicketId,
  UserId,
} from '@support/domain';
import { fromDateOrNull, toDate, toDateOrNull } from './dates.js';

// Uploads and attachments as MongoDB documents (contract §9), and a message's attachments.
// `ticketId`/`messageNumber` are null while a record is an upload; `holdsBytes` (not deleted)
// is what the reference count of a blob reads.

export interface AttachmentDocument {
  _id: number;
  uploaderId: number;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  blobKey: string;
  scan: ScanVerdict;
  createdAt: Date;
  expiresAt: Date | null;
  ticketId: number | null;
  messageNumber: number | null;
  deletedAt: Date | null;
}

export interface SummaryDocument {
  id: number;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  scan: ScanVerdict;
  createdAt: Date;
}

export const toAttachmentDocument = (a: Attachment): AttachmentDocument => ({
  _id: a.id,
  uploaderId: a.uploaderId,
  filename: a.filename,
  contentType: a.contentType,
  size: a.size,
  sha256: a.sha256,
  blobKey: a.blobKey,
  scan: a.scan,
  createdAt: toDate(a.createdAt),
  expiresAt: toDateOrNull(a.expiresAt),
  ticketId: a.message?.ticketId ?? null,
  messageNumber: a.message?.number ?? null,
  deletedAt: toDateOrNull(a.deletedAt),
});

export const fromAttachmentDocument = (d: AttachmentDocument): Attachment => ({
  id: d._id as AttachmentId,
  uploaderId: d.uploaderId as UserId,
  filename: d.filename,
  contentType: d.contentType,
  size: d.size,
  sha256: d.sha256,
  blobKey: d.blobKey,
  scan: d.scan,
  createdAt: d.createdAt.getTime(),
  expiresAt: fromDateOrNull(d.expiresAt),
  message:
    d.ticketId === null || d.messageNumber === null
      ? null
      : { ticketId: d.ticketId as TicketId, number: d.messageNumber as MessageNumber },
  deletedAt: fromDateOrNull(d.deletedAt),
});

export const toSummaryDocument = (a: AttachmentSummary): SummaryDocument => ({
  id: a.id,
  filename: a.filename,
  contentType: a.contentType,
  size: a.size,
  sha256: a.sha256,
  scan: a.scan,
  createdAt: toDate(a.createdAt),
});

export const fromSummaryDocument = (d: SummaryDocument): AttachmentSummary => ({
  id: d.id as AttachmentId,
  filename: d.filename,
  contentType: d.contentType,
  size: d.size,
  sha256: d.sha256,
  scan: d.scan,
  createdAt: d.createdAt.getTime(),
});

/** Uploads of one user that a new upload counts against: not attached, not deleted, not expired at `now`. */
export const unattachedFilter = (uploaderId: number, now: number) => ({
  uploaderId,
  ticketId: null,
  deletedAt: null,
  expiresAt: { $gt: new Date(now) },
});
