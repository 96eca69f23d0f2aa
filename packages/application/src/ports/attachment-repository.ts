import type { Attachment, AttachmentId, UserId } from '@support/domain';

/**
 * Uploads and attachments (contract §9): one record per file, an upload until a message takes
 * it. A message takes its uploads, and deleting an attachment changes its message, through the
 * MessageRepository, in the message's own write.
 */
export interface AttachmentRepository {
  /**
   * Stores a new upload unless its uploader already holds `maxUnattached` uploads not attached
   * and not expired at `upload.createdAt`; false (nothing stored) then.
   */
  insertUpload(upload: Attachment, maxUnattached: number): Promise<boolean>;
  /** An upload or attachment by id, deleted ones included; null when there is none (or it expired and was removed). */
  find(id: AttachmentId): Promise<Attachment | null>;
  /** How many uploads `uploader` holds that are neither attached nor expired at `now`. */
  countUnattached(uploader: UserId, now: number): Promise<number>;
  /** Whether a record that holds bytes (an upload, an attachment not deleted) names `blobKey`. */
  references(blobKey: string): Promise<boolean>;
  /** At most `limit` uploads never attached whose time ran out at `now`, earliest first. */
  expired(now: number, limit: number): Promise<readonly Attachment[]>;
  /** Removes an upload that is still not attached; false when it is attached or gone. */
  removeUpload(id: AttachmentId): Promise<boolean>;
}
