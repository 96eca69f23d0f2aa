import type { DomainError, QueryIssue } from '../errors.js';
import { issue, param, type QueryParams } from './params.js';

export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

/**
 * `maxOffset`: a page must start within a list's first 10,000 items. Skipping to an offset
 * walks that many index entries in every store, so a deeper page would cost in proportion
 * to its depth; narrowing the list (a filter, q, another sort) reaches any item instead.
 */
export const pageBounds = { defaultPerPage: 30, maxPerPage: 100, maxPage: 2_147_483_647, maxOffset: 10_000 } as const;

const positiveInt = /^[1-9][0-9]{0,9}$/;

/** The refusal of a page parameter, naming the value sent (or that it was sent twice). */
const badPageValue = (name: string, raw: string | readonly string[], max: number): string =>
  typeof raw === 'string'
    ? `${name} must be an integer from 1 to ${max} (got ${JSON.stringify(raw.slice(0, 40))})`
    : `${name} must be given once (got ${raw.length} values)`;

/** `page` (from 1) and `per_page` (default 30, 1-100). */
export const parsePage = (params: QueryParams, issues: QueryIssue[]): PageRequest => {
  let page = 1;
  let perPage: number = pageBounds.defaultPerPage;
  const rawPage = param(params, 'page');
  if (rawPage !== undefined) {
    const n = positiveInt.test(rawPage) ? Number(rawPage) : NaN;
    if (Number.isNaN(n) || n > pageBounds.maxPage) {
      issues.push(issue('page', rawPage, badPageValue('page', params.page ?? rawPage, pageBounds.maxPage)));
    } else page = n;
  }
  const rawPer = param(params, 'per_page');
  if (rawPer !== undefined) {
    const n = positiveInt.test(rawPer) ? Number(rawPer) : NaN;
    if (Number.isNaN(n) || n > pageBounds.maxPerPage) {
      issues.push(issue('per_page', rawPer, badPageValue('per_page', params.per_page ?? rawPer, pageBounds.maxPerPage)));
    } else perPage = n;
  }
  return { page, perPage };
};

export const pageOffset = (p: PageRequest): number => (p.page - 1) * p.perPage;

/** The deepest page of `perPage` items that starts within the first `pageBounds.maxOffset` items. */
export const deepestPage = (perPage: number): number => Math.floor((pageBounds.maxOffset - 1) / perPage) + 1;

/** A page that starts past the items any list serves: the PageTooDeep error, else null. */
export const pageTooDeep = (p: PageRequest): DomainError | null =>
  pageOffset(p) < pageBounds.maxOffset ? null : { _tag: 'PageTooDeep', maxOffset: pageBounds.maxOffset, deepestPage: deepestPage(p.perPage) };

/** The number of the last page (at least 1, so an empty list still has a first and last page). */
export const lastPage = (total: number, perPage: number): number => Math.max(1, Math.ceil(total / perPage));
