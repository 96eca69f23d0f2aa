import {
  fieldError,
  isAttachable,
  summaryOf,
  validationFailed,
  type Attachment,
  type AttachmentId,
  type AttachmentSummary,
  type FieldError,
  type UserId,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';

/** Why an upload cannot go on a new message, said without telling another user's upload from none. */
const refusal = (a: Attachment | null, authorId: UserId, now: number): string | null => {
  if (a === null || a.uploaderId !== authorId || a.deletedAt !== null)
    return 'is not an upload of yours (upload the file first: POST /v1/uploads)';
  if (a.message !== null) return 'is already attached to a message';
  if (!isAttachable(a, authorId, now)) return 'has expired (uploads not attached in time are deleted): upload it again';
  return null;
};

const refused = (index: number, id: AttachmentId, why: string): FieldError =>
  fieldError(`attachmentIds.${index}`, 'invalid_value', `upload ${id} ${why}`);

/**
 * The uploads a new message of `authorId` would take, in the order given: each must be the
 * author's own, not attached, not expired (contract §9). Every refused id at once (422).
 */
export const attachableUploads = async (
  ports: Pick<Ports, 'attachments'>,
  authorId: UserId,
  ids: readonly AttachmentId[],
  now: number,
): Promise<Outcome<readonly AttachmentSummary[]>> => {
  const found = await Promise.all(ids.map((id) => ports.attachments.find(id)));
  const errors: FieldError[] = [];
  const summaries: AttachmentSummary[] = [];
  found.forEach((a, i) => {
    const why = refusal(a, authorId, now);
    const id = ids[i] as AttachmentId;
    if (why !== null || a === null) errors.push(refused(i, id, why ?? ''));
    else summaries.push(summaryOf(a));
  });
  return errors.length > 0 ? E.left(validationFailed(errors)) : E.right(summaries);
};

/** The 422 of uploads that a concurrent request attached, or whose time ran out, since they were checked. */
export const refusedMeanwhile = (given: readonly AttachmentId[], refusedIds: readonly AttachmentId[]) =>
  validationFailed(
    refusedIds.map((id) =>
      refused(given.indexOf(id), id, 'was attached to another message or expired meanwhile: upload it again'),
    ),
  );
