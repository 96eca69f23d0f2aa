import type { ResourceVersion } from './cache/response-cache.js';
import type { StreamedBody } from './conventions/rendered.js';

// What a route (or the error boundary) answers, before the conventions turn it into
// bytes: envelope/JSONP, ETag and conditional requests, pretty-printing, gzip.
// Routes never write ctx.body themselves.

/** A page of a list: enough to build the Link header, X-Total-Count and `next_page`. */
export interface PageInfo {
  readonly page: number;
  readonly perPage: number;
  readonly total: number;
}

export interface Reply {
  readonly status: number;
  /** A JSON value; undefined for an answer without a body. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Epoch ms of the resource's updated_at (Last-Modified); absent on lists, whose newest
   * item cannot show that an item was deleted or left the list (their ETag does).
   */
  readonly lastModified?: number | null;
  readonly page?: PageInfo;
  /** A list read by cursor (the change feed): where the next read starts (Link rel="next", `next_page`). */
  readonly cursor?: { readonly after: number };
  /** Token answers: Cache-Control: no-store instead of private, no-cache. */
  readonly noStore?: boolean;
  /** A non-JSON answer (the documentation page and its assets): sent as these bytes, never enveloped. */
  readonly raw?: RawBody;
  /** Instead of `body`: a body the response cache may keep, built only when it has no answer for its key. */
  readonly cacheable?: CacheableBody;
  /** Instead of `body`: bytes that are not JSON, streamed (an attachment's content): never enveloped nor gzipped. */
  readonly stream?: StreamedBody;
}

/**
 * A JSON body named by a key. The key must name everything `build` reads (the resource's id and
 * version, the caller's view of it, the representation options), so that one key never stands
 * for two bodies; render adds what it adds itself (presentation, status, page).
 */
export interface CacheableBody {
  readonly key: string;
  /** The one resource the body shows, at its version: a newer version drops the older's entries. */
  readonly version: ResourceVersion | null;
  build(): unknown;
}

/** Bytes that are not JSON, with their content type and entity tag. */
export interface RawBody {
  readonly contentType: string;
  readonly bytes: Buffer;
  /** A strong ETag of `bytes`; absent for an answer that has none (a kept error). */
  readonly etag?: string;
  /** The gzip of `bytes` (made once by the owner); absent when gzip would not pay off. */
  readonly gzipped?: () => Promise<Buffer>;
}

export const ok = (body: unknown, extra: Omit<Reply, 'status' | 'body'> = {}): Reply => ({
  status: 200,
  body,
  ...extra,
});

export const created = (body: unknown, location: string, lastModified: number): Reply => ({
  status: 201,
  body,
  headers: { Location: location },
  lastModified,
});

/**
 * 201 for a creation whose answer shows a secret once (a personal token, a webhook's signing
 * secret): no-store, so no cache keeps it and it carries no ETag or Last-Modified.
 */
export const createdWithSecret = (body: unknown, location: string): Reply => ({
  status: 201,
  body,
  headers: { Location: location },
  noStore: true,
});

/** 200 with a body the response cache may keep. */
export const okCached = (
  cacheable: CacheableBody,
  extra: Omit<Reply, 'status' | 'body' | 'cacheable'> = {},
): Reply => ({
  status: 200,
  body: null,
  cacheable,
  ...extra,
});
