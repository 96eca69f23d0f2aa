import type { AppContext, Services } from '../state.js';
import type { Reply } from '../reply.js';
import { apiVersionHeader } from './api-version.js';
import { noStore, revalidate, varyHeader } from './caching-headers.js';
import { acceptsGzip, gzipBody } from './compression.js';
import { notModified } from './conditional-requests.js';
import { answerBytes } from './answer-bytes.js';
import { cursorLinks, pageLinks } from './pagination.js';
import { setHeaders } from './response-headers.js';
import { sendRaw } from './raw-body.js';
import type { Presentation } from './presentation.js';

// The last step of every answer, errors included: a Reply becomes headers and bytes
// (answer-bytes.ts: envelope, ETag, pretty-printing, JSONP; kept in the response cache when
// the body is cacheable), then 304 or the bytes, gzipped when the client takes gzip.

const isRead = (method: string): boolean => method === 'GET' || method === 'HEAD';

/** Renders the answer; resolves to the body's bytes before compression (null for no body or a 304). */
export const render = async (ctx: AppContext, { options, urls, cache }: Services, reply: Reply, p: Presentation): Promise<Buffer | null> => {
  ctx.set(apiVersionHeader, ctx.state.apiVersion);
  ctx.set('Vary', varyHeader);
  ctx.set('Cache-Control', reply.noStore === true ? noStore : revalidate);
  if (reply.noStore === true) ctx.set('Pragma', 'no-cache');
  ctx.set('X-Content-Type-Options', 'nosniff');
  setHeaders(ctx, reply.headers ?? {});

  if (reply.raw !== undefined) {
    await sendRaw(ctx, reply.status, reply.raw, options.compressionThreshold);
    return ctx.status === 304 ? null : reply.raw.bytes;
  }

  let nextPage: string | null = null;
  if (reply.page !== undefined) {
    const links = pageLinks(urls.path(ctx.path), ctx.querystring, reply.page);
    ctx.append('Link', links.link);
    ctx.set('X-Total-Count', String(reply.page.total));
    nextPage = links.next;
  } else if (reply.cursor !== undefined) {
    const links = cursorLinks(urls.path(ctx.path), ctx.querystring, reply.cursor.after);
    ctx.append('Link', links.link);
    nextPage = links.next;
  }

  const wrapped = p.envelope || p.callback !== null;
  const status = wrapped ? 200 : reply.status;
  if (reply.body === undefined && reply.cacheable === undefined && !wrapped) {
    ctx.status = status;
    ctx.body = Buffer.alloc(0);
    ctx.remove('Content-Type');
    return null;
  }

  const { answer, kept } = answerBytes(cache, reply, p, wrapped, nextPage);
  if (answer.etag !== null) {
    ctx.set('ETag', answer.etag);
    if (answer.lastModified !== null) ctx.set('Last-Modified', answer.lastModified);
    if (isRead(ctx.method) && reply.status === 200 && notModified(ctx.get('If-None-Match'), ctx.get('If-Modified-Since'), answer.etag, reply.lastModified ?? null)) {
      ctx.status = 304;
      ctx.body = null;
      return null;
    }
  }

  const bytes = answer.bytes;
  let sent = bytes;
  if (bytes.length >= options.compressionThreshold && acceptsGzip(ctx.get('Accept-Encoding'))) {
    if (answer.gzipped === null) {
      answer.gzipped = await gzipBody(bytes);
      kept?.cache.grew(kept.key);
    }
    sent = answer.gzipped;
    ctx.set('Content-Encoding', 'gzip');
  }
  ctx.status = status;
  ctx.set('Content-Type', p.callback === null ? 'application/json; charset=utf-8' : 'application/javascript; charset=utf-8');
  ctx.body = sent;
  return bytes;
};
