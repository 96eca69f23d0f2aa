import type { QueryIssue } from '@support/domain';

/** Query parameters as a router hands them over; a repeated parameter arrives as a list. */
export type QueryParams = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A parameter's value; repeated parameters are read as one comma list (state=open&state=closed). */
export const param = (params: QueryParams, name: string): string | undefined => {
  const v = params[name];
  return typeof v === 'string' || v === undefined ? v : v.join(',');
};

export const issue = (parameter: string, value: string, message: string): QueryIssue => ({ parameter, value, message });

/** Splits a comma list; empty items are reported (once per parameter), not skipped. */
export const commaList = (parameter: string, raw: string, issues: QueryIssue[]): string[] => {
  const items = raw.split(',').map((s) => s.trim());
  const out = items.filter((item) => item !== '');
  if (out.length < items.length) {
    const message = raw.trim() === '' ? `${parameter} is empty: omit it or name at least one value` : `${parameter} holds an empty item (got ${JSON.stringify(raw.slice(0, 60))})`;
    issues.push(issue(parameter, raw, message));
  }
  return out;
};
