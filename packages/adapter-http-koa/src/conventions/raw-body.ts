import type { RawBody } from '../reply.js';
import type { AppContext } from '../state.js';
import { acceptsGzip } from './compression.js';
import { notModified } from './conditional-requests.js';

// Answers whose bytes are ready (the documentation page and its assets, a replayed answer)
// are sent as they are, with their strong ETag (If-None-Match -> 304) and gzip when the client
// accepts it.

export const sendRaw = async (ctx: AppContext, status: number, raw: RawBody, compressionThreshold: number): Promise<void> => {
  if (raw.etag !== undefined) ctx.set('ETag', raw.etag);
  if (raw.etag !== undefined && (ctx.method === 'GET' || ctx.method === 'HEAD') && status === 200 && notModified(ctx.get('If-None-Match'), '', raw.etag, null)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  let bytes = raw.bytes;
  if (raw.gzipped !== undefined && bytes.length >= compressionThreshold && acceptsGzip(ctx.get('Accept-Encoding'))) {
    bytes = await raw.gzipped();
    ctx.set('Content-Encoding', 'gzip');
  }
  ctx.status = status;
  ctx.set('Content-Type', raw.contentType);
  ctx.body = bytes;
};
