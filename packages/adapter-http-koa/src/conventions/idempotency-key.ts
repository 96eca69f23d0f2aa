import type { StoredAnswer } from '@support/application';
import { createHash } from 'node:crypto';
import { gzipBody } from './compression.js';
import type { Reply } from '../reply.js';

// Idempotency-Key (contract §7.1; IETF draft "The Idempotency-Key HTTP Header Field"): a POST
// under /v1 but the token endpoints may carry one. The first request with a key runs; a repeat
// with the same method, path and body gets the first answer again, byte for byte.

export const idempotencyKeyHeader = 'Idempotency-Key';
export const replayedHeader = 'Idempotent-Replayed';

/** The headers a replay repeats, besides status and body (those of the representation). */
export const keptHeaders = ['Location', 'ETag', 'Last-Modified', 'Content-Type'] as const;

/** 1-255 printable ASCII characters (%x21-7E). */
export const isIdempotencyKey = (s: string): boolean => /^[!-~]{1,255}$/.test(s);

/** Whether a request of this method and path takes the header into account. */
export const takesIdempotencyKey = (method: string, path: string): boolean =>
  method === 'POST' && path.startsWith('/v1/') && !path.startsWith('/v1/oauth/');

/** SHA-256 over the method, the path and the SHA-256 of the body bytes. */
export const requestFingerprint = (method: string, path: string, body: Buffer): string => {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  return createHash('sha256').update(`${method}\n${path}\n${bodyHash}`).digest('hex');
};

/** A kept answer, sent again as it was, marked as a replay. */
export const replayReply = (answer: StoredAnswer): Reply => {
  const bytes = Buffer.from(answer.body);
  const { Location: location, ETag: etag, 'Last-Modified': lastModified, 'Content-Type': contentType } = answer.headers;
  return {
    status: answer.status,
    body: undefined,
    headers: {
      ...(location === undefined ? {} : { Location: location }),
      ...(lastModified === undefined ? {} : { 'Last-Modified': lastModified }),
      [replayedHeader]: 'true',
    },
    raw: {
      contentType: contentType ?? 'application/json; charset=utf-8',
      bytes,
      ...(etag === undefined ? {} : { etag }),
      gzipped: () => gzipBody(bytes),
    },
  };
};
