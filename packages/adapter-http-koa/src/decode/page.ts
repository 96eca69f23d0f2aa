import type { DecodedQuery } from '@support/application';
import { pageBounds, type PageRequest, type QueryIssue } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { issue, param, type QueryParams } from './query-params.js';

const positiveInt = /^[1-9][0-9]{0,9}$/;

/** The refusal of a page parameter, naming the value sent (or that it was sent twice). */
const badPageValue = (name: string, raw: string | readonly string[], max: number): string =>
  typeof raw === 'string'
    ? `${name} must be an integer from 1 to ${max} (got ${JSON.stringify(raw.slice(0, 40))})`
    : `${name} must be given once (got ${raw.length} values)`;

/** A positive integer parameter up to `max`; `fallback` when absent or refused (then with its issue). */
const positiveParam = (params: QueryParams, name: 'page' | 'per_page', max: number, fallback: number, issues: QueryIssue[]): number => {
  const raw = param(params, name);
  if (raw === undefined) return fallback;
  const n = positiveInt.test(raw) ? Number(raw) : NaN;
  if (!Number.isNaN(n) && n <= max) return n;
  issues.push(issue(name, raw, badPageValue(name, params[name] ?? raw, max)));
  return fallback;
};

/** `page` (from 1) and `per_page` (default 30, 1-100). */
export const parsePage = (params: QueryParams, issues: QueryIssue[]): PageRequest => ({
  page: positiveParam(params, 'page', pageBounds.maxPage, 1, issues),
  perPage: positiveParam(params, 'per_page', pageBounds.maxPerPage, pageBounds.defaultPerPage, issues),
});

/** The page of a plain list (messages, users, groups, a group's members). */
export const decodePage = (params: QueryParams): DecodedQuery<PageRequest> => {
  const issues: QueryIssue[] = [];
  const page = parsePage(params, issues);
  return issues.length > 0 ? E.left(issues) : E.right(page);
};
