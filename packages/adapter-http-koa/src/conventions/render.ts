import type { AppContext, Services } from '../state.js';
import type { Reply } from '../reply.js';
import { apiVersionHeader } from './api-version.js';
import { noStore, revalidate, varyHeader } from './caching-headers.js';
import { gzipBody, sendsGzip } from './compression.js';
import { answersNotModified } from './conditional-requests.js';
import { answerBytes } from './answer-bytes.js';
import { cursorLinks, pageLinks } from './pagination.js';
import { setHeaders } from './response-headers.js';
import { renderRaw } from './raw-body.js';
import type { Rendered } from './rendered.js';
import type { Presentation } from './presentation.js';

// The last step of every answer, errors included: a Reply becomes headers and bytes
// (answer-bytes.ts: envelope, ETag, pretty-printing, JSONP; kept in the response cache when
// the body is cacheable), then 304 or the bytes, gzipped when the client takes gzip.

const emptyBody = Buffer.alloc(0);

/** Renders the answer onto the request's header list; `respond` writes it. */
export const render = async (
  ctx: AppContext,
  { options, urls, cache }: Services,
  reply: Reply,
  p: Presentation,
): Promise<Rendered> => {
  const headers = ctx.state.headers;
  headers.set(apiVersionHeader, ctx.state.apiVersion);
  headers.set('Vary', varyHeader);
  headers.set('Cache-Control', reply.noStore === true ? noStore : revalidate);
  if (reply.noStore === true) headers.set('Pragma', 'no-cache');
  headers.set('X-Content-Type-Options', 'nosniff');
  if (reply.headers !== undefined) setHeaders(headers, reply.headers);

  if (reply.raw !== undefined) return renderRaw(ctx, headers, reply.status, reply.raw, options.compressionThreshold);
  if (reply.stream !== undefined) {
    headers.set('Content-Type', reply.stream.contentType);
    return { status: reply.status, body: null, stream: reply.stream };
  }

  let nextPage: string | null = null;
  if (reply.page !== undefined) {
    const links = pageLinks(urls.path(ctx.path), ctx.querystring, reply.page);
    headers.append('Link', links.link);
    headers.set('X-Total-Count', String(reply.page.total));
    nextPage = links.next;
  } else if (reply.cursor !== undefined) {
    const links = cursorLinks(urls.path(ctx.path), ctx.querystring, reply.cursor.after);
    headers.append('Link', links.link);
    nextPage = links.next;
  }

  const wrapped = p.envelope || p.callback !== null;
  const status = wrapped ? 200 : reply.status;
  if (reply.body === undefined && reply.cacheable === undefined && !wrapped) return { status, body: emptyBody };

  const { answer, kept } = answerBytes(cache, reply, p, wrapped, nextPage);
  if (answer.etag !== null) {
    headers.set('ETag', answer.etag);
    if (answer.lastModified !== null) headers.set('Last-Modified', answer.lastModified);
    if (answersNotModified(ctx, reply.status, answer.etag, reply.lastModified ?? null)) {
      return { status: 304, body: null };
    }
  }

  const bytes = answer.bytes;
  let sent = bytes;
  if (sendsGzip(ctx, bytes.length, options.compressionThreshold)) {
    let gzipped = answer.gzipped;
    if (gzipped === null) {
      gzipped = await gzipBody(bytes);
      if (kept === null) answer.gzipped = gzipped;
      else kept.cache.addGzip(kept.key, answer, gzipped);
    }
    sent = gzipped;
    headers.set('Content-Encoding', 'gzip');
  }
  headers.set(
    'Content-Type',
    p.callback === null ? 'application/json; charset=utf-8' : 'application/javascript; charset=utf-8',
  );
  return { status, body: sent };
};
