import type { RawBody } from '../reply.js';
import type { AppContext } from '../state.js';
import { sendsGzip } from './compression.js';
import { answersNotModified } from './conditional-requests.js';
import type { Rendered } from './rendered.js';
import type { ResponseHeaders } from './response-headers.js';

// Answers whose bytes are ready (the documentation page and its assets, a replayed answer)
// are sent as they are, with their strong ETag (If-None-Match -> 304) and gzip when the client
// accepts it.

export const renderRaw = async (
  request: Pick<AppContext, 'req' | 'method'>,
  headers: ResponseHeaders,
  status: number,
  raw: RawBody,
  compressionThreshold: number,
): Promise<Rendered> => {
  if (raw.etag !== undefined) headers.set('ETag', raw.etag);
  // No Last-Modified: If-None-Match alone decides.
  if (raw.etag !== undefined && answersNotModified(request, status, raw.etag, null)) {
    return { status: 304, body: null };
  }
  let bytes = raw.bytes;
  if (raw.gzipped !== undefined && sendsGzip(request, bytes.length, compressionThreshold)) {
    bytes = await raw.gzipped();
    headers.set('Content-Encoding', 'gzip');
  }
  headers.set('Content-Type', raw.contentType);
  return { status, body: bytes };
};
