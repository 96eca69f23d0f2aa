import type { FieldError, QueryIssue } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';

/** The Right of an Either, or a failed test naming the Left. */
export const rightOf = <L, R>(e: E.Either<L, R>): R => {
  if (E.isLeft(e)) throw new Error(`expected Right, got Left: ${JSON.stringify(e.left)}`);
  return e.right;
};

/** The Left of an Either, or a failed test naming the Right. */
export const leftOf = <L, R>(e: E.Either<L, R>): L => {
  if (E.isRight(e)) throw new Error(`expected Left, got Right: ${JSON.stringify(e.right)}`);
  return e.left;
};

/** Field errors as [field, code] pairs, the part of an error a client acts on. */
export const fieldCodes = (errors: readonly FieldError[]): Array<[string, string]> => errors.map((e) => [e.field, e.code]);

/** Query issues as [parameter, value] pairs. */
export const issuePairs = (issues: readonly QueryIssue[]): Array<[string, string]> => issues.map((i) => [i.parameter, i.value]);
