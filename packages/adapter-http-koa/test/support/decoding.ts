import type { QueryIssue } from '@support/domain';

export { fieldCodes, leftOf, rightOf } from '@support/domain/testing';

/** Query issues as [parameter, value] pairs. */
export const issuePairs = (issues: readonly QueryIssue[]): Array<[string, string]> =>
  issues.map((i) => [i.parameter, i.value]);
