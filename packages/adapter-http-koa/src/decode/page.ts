import type { DecodedQuery } from '@support/application';
import { pageBounds, type PageRequest, type QueryIssue } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { integerParam, type QueryParams } from './query-params.js';

/** `page` (from 1) and `per_page` (default 30, 1-100). */
export const parsePage = (params: QueryParams, issues: QueryIssue[]): PageRequest => ({
  page: integerParam(params, 'page', { min: 1, max: pageBounds.maxPage }, 1, issues),
  perPage: integerParam(params, 'per_page', { min: 1, max: pageBounds.maxPerPage }, pageBounds.defaultPerPage, issues),
});

/** The page of a plain list (messages, users, groups, a group's members). */
export const decodePage = (params: QueryParams): DecodedQuery<PageRequest> => {
  const issues: QueryIssue[] = [];
  const page = parsePage(params, issues);
  return issues.length > 0 ? E.left(issues) : E.right(page);
};
