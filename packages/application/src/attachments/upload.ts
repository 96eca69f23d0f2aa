import {
  attachmentLimits,
  decideContentType,
  fieldError,
  infected,
  normaliseFilename,
  scannerUnavailable,
  tooManyUploads,
  uploadTooLarge,
  validationFailed,
  type Attachment,
  type AttachmentId,
  type ScanVerdict,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import type { StagedBlob } from '../ports/blob-store.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import { eraseUnreferenced } from './bytes.js';

export interface AttachmentsConfig {
  /** The most bytes one upload may have (UPLOAD_MAX_BYTES). */
  readonly maxBytes: number;
  /** How long an upload waits for a message to take it (UPLOAD_TTL_S). */
  readonly ttlSeconds: number;
}

/** A file as the edge hands it over: streamed, never whole. */
export interface UploadInput {
  /** The name the request gave (normalised here); null when it gave none. */
  readonly filename: string | null;
  /** The Content-Type the request declared for the file; null when none. */
  readonly declaredType: string | null;
  readonly source: AsyncIterable<Uint8Array>;
  /** Told of each chunk of `source` the store has taken the bytes of and reads no more (BlobStore.stage). */
  readonly release?: (chunk: Uint8Array) => void;
  /** What the file's leading bytes show (magic numbers), asked once the source has been read. */
  readonly detectedType: () => Promise<string | null>;
}

/** An upload received and judged, not yet stored: kept (the record is committed) or discarded. */
export interface PendingUpload {
  readonly sha256: string;
  readonly size: number;
  keep(): Promise<Outcome<Attachment>>;
  discard(): Promise<void>;
}

const refusedName = (given: string | null) =>
  validationFailed([
    given === null
      ? fieldError(
          'filename',
          'required',
          "name the file: ?filename=, Content-Disposition, or the multipart part's filename",
        )
      : fieldError(
          'filename',
          'invalid_length',
          'must be 1-255 characters once path separators, control characters and leading dots are removed',
        ),
  ]);

/** Whether the scanner lets the staged bytes in; a refusal discards them. */
const judge = async (ports: Ports, blob: StagedBlob): Promise<Outcome<ScanVerdict>> => {
  if (ports.scanner === null) return E.right('not_scanned');
  const verdict = await ports.scanner.scan(blob.read());
  if (verdict.kind === 'clean') return E.right('clean');
  await blob.discard();
  return E.left(verdict.kind === 'infected' ? infected(verdict.signature) : scannerUnavailable);
};

/**
 * Receives an upload (contract §9): the name checked and the uploader's count of unattached
 * uploads before a byte is read, the bytes staged (at most `maxBytes`) and scanned, the content
 * type decided. Nothing is stored until `keep`; every refusal leaves nothing behind.
 */
export const stageUpload = async (
  ports: Ports,
  config: AttachmentsConfig,
  actor: Actor,
  input: UploadInput,
): Promise<Outcome<PendingUpload>> => {
  const filename = normaliseFilename(input.filename ?? '');
  if (filename === null) return E.left(refusedName(input.filename));
  const limit = attachmentLimits.unattachedPerUser;
  if ((await ports.attachments.countUnattached(actor.user.id, ports.clock.now())) >= limit)
    return E.left(tooManyUploads(limit));
  const staged = await ports.blobs.stage(input.source, config.maxBytes, input.release);
  if (staged.kind === 'too_large') return E.left(uploadTooLarge(config.maxBytes));
  const blob = staged.blob;
  let scan: Outcome<ScanVerdict>;
  let contentType: string;
  try {
    scan = await judge(ports, blob);
    if (E.isLeft(scan)) return scan;
    contentType = decideContentType(await input.detectedType(), input.declaredType);
  } catch (e) {
    // A defect on the way: nothing of the upload stays behind.
    await blob.discard();
    throw e;
  }
  const verdict = scan.right;
  return E.right({
    sha256: blob.sha256,
    size: blob.size,
    discard: () => blob.discard(),
    keep: async () => {
      const held = await blob.keep();
      try {
        const now = ports.clock.now();
        const upload: Attachment = {
          id: (await ports.ids.next('attachment')) as AttachmentId,
          uploaderId: actor.user.id,
          filename,
          contentType,
          size: blob.size,
          sha256: blob.sha256,
          blobKey: held.key,
          scan: verdict,
          createdAt: now,
          expiresAt: now + config.ttlSeconds * 1000,
          message: null,
          deletedAt: null,
        };
        if (await ports.attachments.insertUpload(upload, limit)) return E.right(upload);
      } finally {
        held.release();
      }
      await eraseUnreferenced(ports, held.key);
      return E.left(tooManyUploads(limit));
    },
  });
};
