import type { QueryIssue } from '../errors.js';
import { issue, param, type QueryParams } from './params.js';

export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

export const pageBounds = { defaultPerPage: 30, maxPerPage: 100, maxPage: 2_147_483_647 } as const;

const positiveInt = /^[1-9][0-9]{0,9}$/;

/** `page` (from 1) and `per_page` (default 30, 1-100). */
export const parsePage = (params: QueryParams, issues: QueryIssue[]): PageRequest => {
  let page = 1;
  let perPage: number = pageBounds.defaultPerPage;
  const rawPage = param(params, 'page');
  if (rawPage !== undefined) {
    const n = positiveInt.test(rawPage) ? Number(rawPage) : NaN;
    if (Number.isNaN(n) || n > pageBounds.maxPage) {
      issues.push(issue('page', rawPage, `page must be an integer from 1 to ${pageBounds.maxPage}`));
    } else page = n;
  }
  const rawPer = param(params, 'per_page');
  if (rawPer !== undefined) {
    const n = positiveInt.test(rawPer) ? Number(rawPer) : NaN;
    if (Number.isNaN(n) || n > pageBounds.maxPerPage) {
      issues.push(issue('per_page', rawPer, `per_page must be an integer from 1 to ${pageBounds.maxPerPage}`));
    } else perPage = n;
  }
  return { page, perPage };
};

export const pageOffset = (p: PageRequest): number => (p.page - 1) * p.perPage;

/** The number of the last page (at least 1, so an empty list still has a first and last page). */
export const lastPage = (total: number, perPage: number): number => Math.max(1, Math.ceil(total / perPage));
