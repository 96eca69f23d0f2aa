import { deepestPage } from '@support/domain';
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

// Characters that may stand in a URL inside <...> of a Link header; anything else is escaped.
const unsafe = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g;
const escapeUnsafe = (s: string): string => s.replace(unsafe, (c) => encodeURIComponent(c));

export const lastPageOf = (info: PageInfo): number => Math.min(Math.max(1, Math.ceil(info.total / info.perPage)), deepestPage(info.perPage));

/** `base` is the absolute URL of the list without query; `querystring` is the request's, raw. */
export const pageLinks = (base: string, querystring: string, info: PageInfo): PageLinks => {
  const kept = querystring
    .split('&')
    .filter((p) => p !== '' && nameOf(p) !== 'access_token' && nameOf(p) !== 'page')
    .map(escapeUnsafe);
  const url = (page: number): string => `${base}?${[...kept, `page=${page}`].join('&')}`;
  const last = lastPageOf(info);
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
