import type { QueryIssue } from '@support/domain';

/** Query parameters as a router hands them over; a repeated parameter arrives as a list. */
export type QueryParams = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A parameter's value; repeated parameters are read as one comma list (state=open&state=closed). */
export const param = (params: QueryParams, name: string): string | undefined => {
  const v = params[name];
  return typeof v === 'string' || v === undefined ? v : v.join(',');
};

export const issue = (parameter: string, value: string, message: string): QueryIssue => ({ parameter, value, message });

/**
 * Splits a comma list. One rule for every list parameter (state, sort, fields, embed...):
 * an empty item is refused (once per parameter), and so is an item given twice (each repeat
 * named once), as the document's uniqueItems says; neither is skipped.
 */
export const commaList = (parameter: string, raw: string, issues: QueryIssue[]): string[] => {
  const items = raw.split(',').map((s) => s.trim());
  const out = items.filter((item) => item !== '');
  if (out.length < items.length) {
    const message =
      raw.trim() === ''
        ? `${parameter} is empty: omit it or name at least one value`
        : `${parameter} holds an empty item (got ${JSON.stringify(raw.slice(0, 60))})`;
    issues.push(issue(parameter, raw, message));
  }
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const item of out) {
    if (seen.has(item) && !repeated.has(item)) {
      repeated.add(item);
      issues.push(issue(parameter, item, `${parameter} names "${item.slice(0, 60)}" more than once`));
    }
    seen.add(item);
  }
  return out;
};

/** Canonical decimal: no sign, no leading zeros, no exponent (at most 16 digits: a safe integer's). */
const canonicalInteger = /^(0|[1-9][0-9]{0,15})$/;

/**
 * An integer parameter within [min, max]; `fallback` when absent, or when refused (then with
 * its issue, naming the value sent, or that it was sent more than once).
 */
export const integerParam = (
  params: QueryParams,
  name: string,
  bounds: { readonly min: number; readonly max: number },
  fallback: number,
  issues: QueryIssue[],
): number => {
  const given = params[name];
  if (given === undefined) return fallback;
  if (typeof given !== 'string') {
    issues.push(issue(name, given.join(','), `${name} must be given once (got ${given.length} values)`));
    return fallback;
  }
  const n = canonicalInteger.test(given) ? Number(given) : NaN;
  if (Number.isSafeInteger(n) && n >= bounds.min && n <= bounds.max) return n;
  issues.push(
    issue(
      name,
      given,
      `${name} must be an integer from ${bounds.min} to ${bounds.max} (got ${JSON.stringify(given.slice(0, 40))})`,
    ),
  );
  return fallback;
};
