import type { Precondition, WriteOptions } from '@support/application';
import type { IncomingMessage } from 'node:http';
import { etagOf, ifMatchHolds, noneMatch } from './etag.js';
import { parseHttpDate } from './http-date.js';
import { requestHeader } from './request-header.js';

// Conditional requests (RFC 9110 §13).
//   Reads:  If-None-Match (takes precedence) or If-Modified-Since -> 304 without a body.
//   Writes: If-Match on PUT/PATCH/DELETE -> the use case checks it against the current
//           state just before writing and refuses with 412 when it no longer holds.

/** Whether a GET can be answered 304 Not Modified. */
export const notModified = (
  ifNoneMatch: string,
  ifModifiedSince: string,
  etag: string,
  lastModified: number | null,
): boolean => {
  if (ifNoneMatch !== '') return noneMatch(ifNoneMatch, etag);
  if (ifModifiedSince === '' || lastModified === null) return false;
  const since = parseHttpDate(ifModifiedSince);
  // HTTP dates have whole seconds: compare the second the resource last changed in.
  return since !== null && Math.floor(lastModified / 1000) * 1000 <= since;
};

/**
 * Whether a successful read's answer (GET or HEAD, 200) with this ETag and Last-Modified goes as
 * 304 Not Modified instead, by the request's If-None-Match and If-Modified-Since.
 */
export const answersNotModified = (
  request: { readonly method: string; readonly req: IncomingMessage },
  status: number,
  etag: string,
  lastModified: number | null,
): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  status === 200 &&
  notModified(requestHeader(request, 'if-none-match'), requestHeader(request, 'if-modified-since'), etag, lastModified);

/** The use-case precondition of an If-Match header: the ETag of the current representation must be listed. */
export const ifMatchOption = <T>(ifMatch: string, represent: (current: T) => unknown): WriteOptions<T> => {
  if (ifMatch === '') return {};
  const holds: Precondition<T> = (current) => ifMatchHolds(ifMatch, etagOf(represent(current)));
  return { ifMatch: holds };
};
