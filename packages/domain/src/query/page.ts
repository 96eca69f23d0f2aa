import type { DomainError } from '../errors.js';

export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

/**
 * `page` counts from 1; `per_page` is 30 unless asked for, at most 100.
 * `maxOffset`: a page must start within a list's first 10,000 items. Skipping to an offset
 * walks that many index entries in every store, so a deeper page would cost in proportion
 * to its depth; narrowing the list (a filter, q, another sort) reaches any item instead.
 */
export const pageBounds = { defaultPerPage: 30, maxPerPage: 100, maxPage: 2_147_483_647, maxOffset: 10_000 } as const;

export const pageOffset = (p: PageRequest): number => (p.page - 1) * p.perPage;

/** The deepest page of `perPage` items that starts within the first `pageBounds.maxOffset` items. */
export const deepestPage = (perPage: number): number => Math.floor((pageBounds.maxOffset - 1) / perPage) + 1;

/** A page that starts past the items any list serves: the PageTooDeep error, else null. */
export const pageTooDeep = (p: PageRequest): DomainError | null =>
  pageOffset(p) < pageBounds.maxOffset
    ? null
    : { _tag: 'PageTooDeep', maxOffset: pageBounds.maxOffset, deepestPage: deepestPage(p.perPage) };

/** The number of the last page (at least 1, so an empty list still has a first and last page). */
export const lastPage = (total: number, perPage: number): number => Math.max(1, Math.ceil(total / perPage));
