import { showsInline } from '@support/domain';
import type { ByteRange } from '@support/application';
import { problem } from '../errors/http-problem.js';
import type { Reply } from '../reply.js';
import type { AppContext } from '../state.js';
import { rangeOf } from './byte-ranges.js';
import { answersNotModified } from './conditional-requests.js';
import { contentDisposition } from './content-disposition.js';
import { requestHeader } from './request-header.js';

// The answer of GET/HEAD /v1/attachments/{id}/content (contract §9): the bytes streamed, with a
// strong ETag from their SHA-256 (If-None-Match: 304), one Range (206; unsatisfiable: 416),
// and what keeps a browser from running them: nosniff, a sandboxing CSP, and attachment
// disposition for every type but raster images.

/** Browsers may keep the bytes this long (they never change under an id; access can). */
export const contentMaxAgeSeconds = 300;

export interface ContentToSend {
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
  readonly sha256: string;
  open(range?: ByteRange): Promise<AsyncIterable<Uint8Array>>;
}

export const contentReply = (ctx: AppContext, c: ContentToSend): Reply => {
  const etag = `"${c.sha256}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    'Accept-Ranges': 'bytes',
    'Cache-Control': `private, max-age=${String(contentMaxAgeSeconds)}`,
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'Content-Disposition': contentDisposition(showsInline(c.contentType), c.filename),
  };
  if (answersNotModified(ctx, 200, etag, null)) return { status: 304, body: undefined, headers };
  const range = rangeOf(requestHeader(ctx, 'range'), requestHeader(ctx, 'if-range'), etag, c.size);
  if (range.kind === 'unsatisfiable')
    throw problem(
      'rangeNotSatisfiable',
      `the range "${requestHeader(ctx, 'range').slice(0, 64)}" starts past the end: the content has ${String(c.size)} bytes`,
      { headers: { 'Content-Range': `bytes */${String(c.size)}` } },
    );
  if (range.kind === 'whole')
    return {
      status: 200,
      body: undefined,
      headers,
      stream: { contentType: c.contentType, length: c.size, open: () => c.open() },
    };
  const { start, end } = range;
  return {
    status: 206,
    body: undefined,
    headers: { ...headers, 'Content-Range': `bytes ${String(start)}-${String(end)}/${String(c.size)}` },
    stream: { contentType: c.contentType, length: end - start + 1, open: () => c.open({ start, end }) },
  };
};
