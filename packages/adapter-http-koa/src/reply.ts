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

export const ok = (body: unknown, extra: Omit<Reply, 'status' | 'body'> = {}): Reply => ({ status: 200, body, ...extra });

export const created = (body: unknown, location: string, lastModified: number): Reply => ({
  status: 201,
  body,
  headers: { Location: location },
  lastModified,
});
