import { ownTextBytes } from '../cache/own-bytes.js';
import type { CachedAnswer, ResponseCache } from '../cache/response-cache.js';
import type { Reply } from '../reply.js';
import { envelope, jsonpBody } from './envelope.js';
import { strongEtag } from './etag.js';
import { formatHttpDate } from './http-date.js';
import type { Presentation } from './presentation.js';
import { compactJson, prettyJson } from './serialization.js';

// A JSON answer's bytes, ETag and Last-Modified, rendered from the reply, or taken from the
// response cache when the reply's body is cacheable and was rendered before for the same
// presentation. Order matters: envelope first (it is content), then the ETag from the compact
// content, then pretty-printing and JSONP (which are not content).

/** Where the answer's bytes are kept, when they are: its gzip goes to `cache.addGzip(key, ...)`. */
export interface Kept {
  readonly cache: ResponseCache;
  readonly key: string;
}

export interface AnswerBytes {
  readonly answer: CachedAnswer;
  readonly kept: Kept | null;
}

const render = (reply: Reply, p: Presentation, payload: unknown, toKeep: boolean): CachedAnswer => {
  const compact = compactJson(payload);
  let etag: string | null = null;
  let lastModified: string | null = null;
  if ((reply.status === 200 || reply.status === 201) && reply.noStore !== true) {
    // The content: the compact JSON, plus what else the answer depends on.
    etag = strongEtag(
      `${compact}${reply.page === undefined ? '' : `\n${reply.page.total}`}${p.callback === null ? '' : `\n${p.callback}`}`,
    );
    if (reply.lastModified !== undefined && reply.lastModified !== null)
      lastModified = formatHttpDate(reply.lastModified);
  }
  const json = p.pretty ? prettyJson(payload) : compact;
  const text = p.callback === null ? json : jsonpBody(p.callback, json);
  return { etag, lastModified, bytes: toKeep ? ownTextBytes(text) : Buffer.from(text), gzipped: null };
};

/**
 * The cache key of a cacheable reply as presented: the body's key and everything render adds
 * to it (status, layout, callback, page, Last-Modified, the envelope's next page, last because
 * it is the one free-form part).
 */
const keyOf = (reply: Reply, bodyKey: string, p: Presentation, wrapped: boolean, nextPage: string | null): string => {
  const page = reply.page === undefined ? '' : `${reply.page.page}/${reply.page.perPage}/${reply.page.total}`;
  return `${bodyKey}\n${reply.status} ${p.pretty ? 'pretty' : 'compact'} ${wrapped ? 'wrapped' : 'bare'} ${p.callback ?? ''} ${page} ${reply.lastModified ?? ''} ${wrapped ? (nextPage ?? '') : ''}`;
};

/** The answer's bytes; `wrapped`: in the envelope (envelope=true or JSONP), with `nextPage` inside. */
export const answerBytes = (
  cache: ResponseCache,
  reply: Reply,
  p: Presentation,
  wrapped: boolean,
  nextPage: string | null,
): AnswerBytes => {
  const body = reply.cacheable;
  if (body === undefined)
    return {
      answer: render(reply, p, wrapped ? envelope(reply.status, nextPage, reply.body) : reply.body, false),
      kept: null,
    };
  const key = keyOf(reply, body.key, p, wrapped, nextPage);
  const hit = cache.get(key);
  if (hit !== undefined) return { answer: hit, kept: { cache, key } };
  const content = body.build();
  const answer = render(reply, p, wrapped ? envelope(reply.status, nextPage, content) : content, true);
  return { answer, kept: cache.set(key, answer, body.version) ? { cache, key } : null };
};
