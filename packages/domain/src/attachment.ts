import type { AttachmentId, MessageNumber, TicketId, UserId } from './ids.js';

// Files on messages (contract §9). A file is uploaded first (an upload: its uploader's only,
// until it expires), then a new message takes it (an attachment: visible exactly when its
// message is). One record, one id, both ways. The bytes are never in the record: `blobKey`
// names them in the blob store.

/** Whether a malware scanner looked at the bytes before they were kept. */
export type ScanVerdict = 'clean' | 'not_scanned';

/** Where an attachment belongs: a message of a ticket. */
export interface MessageRef {
  readonly ticketId: TicketId;
  readonly number: MessageNumber;
}

export interface Attachment {
  readonly id: AttachmentId;
  readonly uploaderId: UserId;
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
  /** Lower-case hex SHA-256 of the bytes (the content's strong ETag). */
  readonly sha256: string;
  /** Where the blob store keeps the bytes. */
  readonly blobKey: string;
  readonly scan: ScanVerdict;
  readonly createdAt: number;
  /** An upload not attached by then is deleted; null once attached. */
  readonly expiresAt: number | null;
  /** The message holding it; null while it is an upload. */
  readonly message: MessageRef | null;
  /** Set when the attachment was deleted (redacted): it answers 410 and its message no longer lists it. */
  readonly deletedAt: number | null;
}

/** What a message keeps of each of its attachments (its representation's `attachments`). */
export interface AttachmentSummary {
  readonly id: AttachmentId;
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
  readonly sha256: string;
  readonly scan: ScanVerdict;
  readonly createdAt: number;
}

export const attachmentLimits = {
  /** Per message (contract §9: at most 10). */
  perMessage: 10,
  /** Unattached, unexpired uploads one user may hold; the next is refused (429). */
  unattachedPerUser: 50,
  filename: { min: 1, max: 255 },
} as const;

export const summaryOf = (a: Attachment): AttachmentSummary => ({
  id: a.id,
  filename: a.filename,
  contentType: a.contentType,
  size: a.size,
  sha256: a.sha256,
  scan: a.scan,
  createdAt: a.createdAt,
});

/** An upload a message may take now: the author's own, not attached, not deleted, not expired at `now`. */
export const isAttachable = (a: Attachment, authorId: UserId, now: number): boolean =>
  a.uploaderId === authorId && a.message === null && a.deletedAt === null && a.expiresAt !== null && a.expiresAt > now;

/** The upload as a message's attachment. */
export const attachTo = (a: Attachment, message: MessageRef): Attachment => ({ ...a, message, expiresAt: null });

/** Whether the record still refers to its bytes (an upload, or an attachment not deleted). */
export const holdsBytes = (a: Attachment): boolean => a.deletedAt === null;

// Control characters (C0, DEL, C1), the bidirectional overrides and isolates that can make
// "gpj.exe" read as "exe.jpg", and path separators: never part of a stored name.
// eslint-disable-next-line no-control-regex
const unwanted = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069/\\]/gu;
// With the u flag a surrogate pair is one code point: this matches lone surrogates only.
const loneSurrogate = /[\ud800-\udfff]/gu;

/**
 * A filename as stored (contract §9): NFC; path separators, control characters and leading
 * dots removed. Null when nothing is left or more than 255 characters are.
 */
export const normaliseFilename = (raw: string): string | null => {
  const name = raw.replace(loneSurrogate, '').normalize('NFC').replace(unwanted, '').replace(/^\.+/u, '');
  // Characters as code points (a surrogate pair is one).
  const length = Array.from(name).length;
  return length < attachmentLimits.filename.min || length > attachmentLimits.filename.max ? null : name;
};

/** Raster images, the only content ever shown inline (contract §9). */
const inlineTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export const showsInline = (contentType: string): boolean => inlineTypes.has(contentType);

/**
 * Declared types the server keeps when the leading bytes show nothing: types no browser runs
 * (text, data, documents read by other programs). HTML, SVG, XML, scripts and anything else
 * become application/octet-stream; an image type is believed only from the bytes.
 */
const safeDeclared = new Set([
  'text/plain',
  'text/csv',
  'text/tab-separated-values',
  'text/markdown',
  'text/calendar',
  'text/vcard',
  'application/json',
  'application/x-ndjson',
  'application/octet-stream',
]);

export const fallbackContentType = 'application/octet-stream';

/** The media type of a Content-Type value, lower-cased, without parameters; null when it is not one. */
export const mediaTypeOf = (declared: string): string | null => {
  const essence = declared.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(essence) ? essence : null;
};

/**
 * The stored content type (contract §9): what the leading bytes show (`detected`), else the
 * declared type when the server cannot misread it as active content, else octet-stream.
 */
export const decideContentType = (detected: string | null, declared: string | null): string => {
  if (detected !== null) return detected;
  const type = declared === null ? null : mediaTypeOf(declared);
  return type !== null && safeDeclared.has(type) ? type : fallbackContentType;
};
