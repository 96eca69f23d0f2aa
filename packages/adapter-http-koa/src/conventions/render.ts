import type { AppContext, Services } from '../state.js';
import type { Reply } from '../reply.js';
import { apiVersionHeader } from './api-version.js';
import { noStore, revalidate, varyHeader } from './caching-headers.js';
import { acceptsGzip, gzipBody } from './compression.js';
import { notModified } from './conditional-requests.js';
import { envelope, jsonpBody } from './envelope.js';
import { strongEtag } from './etag.js';
import { formatHttpDate } from './http-date.js';
import { cursorLinks, pageLinks } from './pagination.js';
import { setHeaders } from './response-headers.js';
import { sendRaw } from './raw-body.js';
import type { Presentation } from './presentation.js';
import { compactJson, prettyJson } from './serialization.js';

// The last step of every answer, errors included: a Reply becomes headers and bytes.
// Order matters: envelope first (it is content), then ETag from the compact content,
// then 304, then pretty-printing and gzip (which are not content).

const isRead = (method: string): boolean => method === 'GET' || method === 'HEAD';

/** Renders the answer; resolves to the body's bytes before compression (null for no body or a 304). */
export const render = async (ctx: AppContext, { options, urls }: Services, reply: Reply, p: Presentation): Promise<Buffer | null> => {
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
  const payload = wrapped ? envelope(reply.status, nextPage, reply.body) : reply.body;
  if (payload === undefined) {
    ctx.status = status;
    ctx.body = Buffer.alloc(0);
    ctx.remove('Content-Type');
    return null;
  }

  const compact = compactJson(payload);
  const success = reply.status === 200 || reply.status === 201;
  if (success && reply.noStore !== true) {
    // The content: the compact JSON, plus what else the answer depends on.
    const etag = strongEtag(`${compact}${reply.page === undefined ? '' : `\n${reply.page.total}`}${p.callback === null ? '' : `\n${p.callback}`}`);
    const lastModified = reply.lastModified ?? null;
    ctx.set('ETag', etag);
    if (lastModified !== null) ctx.set('Last-Modified', formatHttpDate(lastModified));
    if (isRead(ctx.method) && reply.status === 200 && notModified(ctx.get('If-None-Match'), ctx.get('If-Modified-Since'), etag, lastModified)) {
      ctx.status = 304;
      ctx.body = null;
      return null;
    }
  }

  const json = p.pretty ? prettyJson(payload) : compact;
  const text = p.callback === null ? json : jsonpBody(p.callback, json);
  const bytes: Buffer = Buffer.from(text);
  let sent = bytes;
  if (bytes.length >= options.compressionThreshold && acceptsGzip(ctx.get('Accept-Encoding'))) {
    sent = await gzipBody(bytes);
    ctx.set('Content-Encoding', 'gzip');
  }
  ctx.status = status;
  ctx.set('Content-Type', p.callback === null ? 'application/json; charset=utf-8' : 'application/javascript; charset=utf-8');
  ctx.body = sent;
  return bytes;
};
