import { deepestPage, lastPage } from '@support/domain';
import type { PageInfo } from '../reply.js';

// Lists are paged with `page` (from 1) and `per_page`. The Link header (RFC 8288) carries
// absolute, ready-to-use URLs for first, prev, next and last; each keeps every query
// parameter of the request as the client sent it, except `access_token` (a secret that
// must not travel in links) and `page`. X-Total-Count carries the number of items; `last`
// and `next` never point past the deepest page a list serves (pageBounds.maxOffset).

export interface PageLinks {
  readonly link: string;
  /** The next page's URL; null on the last page (the envelope's `next_page`). */
  readonly next: string | null;
}

const nameOf = (pair: string): string => {
  const raw = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
};

// Characters that may stand in a URL inside <...> of a Link header; anything else is escaped,
// and so is a % that starts no escape (the query reads it as text, a URI must say %25).
const unsafe = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]|%(?![0-9A-Fa-f]{2})/g;
const escapeUnsafe = (s: string): string => s.replace(unsafe, (c) => encodeURIComponent(c));

/** The request's parameters as sent, without the token and the one a link sets itself. */
const keptParams = (querystring: string, set: string): string[] =>
  querystring
    .split('&')
    .filter((p) => p !== '' && nameOf(p) !== 'access_token' && nameOf(p) !== set)
    .map(escapeUnsafe);

/** `base` is the absolute URL of the list without query; `querystring` is the request's, raw. */
export const pageLinks = (base: string, querystring: string, info: PageInfo): PageLinks => {
  const kept = keptParams(querystring, 'page');
  const url = (page: number): string => `${base}?${[...kept, `page=${page}`].join('&')}`;
  // A list longer than the deepest page it serves links no further than that page.
  const last = Math.min(lastPage(info.total, info.perPage), deepestPage(info.perPage));
  const rels: [string, number][] = [['first', 1]];
  if (info.page > 1) rels.push(['prev', Math.min(info.page - 1, last)]);
  const next = info.page < last ? info.page + 1 : null;
  if (next !== null) rels.push(['next', next]);
  rels.push(['last', last]);
  return {
    link: rels.map(([rel, page]) => `<${url(page)}>; rel="${rel}"`).join(', '),
    next: next === null ? null : url(next),
  };
};

/**
 * A list read by cursor (the change feed): only `next`, always, since more may arrive after
 * the newest; it keeps the request's other parameters (per_page, wait) and sets `after`.
 */
export const cursorLinks = (base: string, querystring: string, after: number): PageLinks => {
  const next = `${base}?${[...keptParams(querystring, 'after'), `after=${after}`].join('&')}`;
  return { link: `<${next}>; rel="next"`, next };
};
