import type { QueryIssue } from '../errors.js';

/** Query parameters as a router hands them over; a repeated parameter arrives as a list. */
export type QueryParams = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A parameter's value; repeated parameters are read as one comma list (state=open&state=closed). */
export const param = (params: QueryParams, name: string): string | undefined => {
  const v = params[name];
  return typeof v === 'string' || v === undefined ? v : v.join(',');
};

export const issue = (parameter: string, value: string, message: string): QueryIssue => ({ parameter, value, message });

/** Splits a comma list; empty items are reported, not skipped. */
export const commaList = (parameter: string, raw: string, issues: QueryIssue[]): string[] => {
  const items = raw.split(',').map((s) => s.trim());
  const out: string[] = [];
  for (const item of items) {
    if (item === '') issues.push(issue(parameter, raw, `${parameter} holds an empty item`));
    else out.push(item);
  }
  return out;
};
