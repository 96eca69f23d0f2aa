import {
  invalidQuery,
  pageTooDeep,
  validationFailed,
  type FieldError,
  type PageRequest,
  type QueryIssue,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Outcome } from './shared.js';

// Requests reach the use cases decoded at the edge: a typed query or command, or why the
// edge refused it. The use case decides when a refusal is answered: who may do what comes
// first (a customer listing users hears 403 whatever the page; a note to an invisible ticket
// is 404 whatever the body), as does what depends on the caller (a missing customer).

/** A query string as typed values, or every bad parameter at once. */
export type DecodedQuery<Q> = E.Either<readonly QueryIssue[], Q>;

/**
 * Why a request body was refused: every bad field at once (at most maxListedFieldErrors of
 * them; `omitted` counts the rest), and the fields of the resource it named (null: it is not an
 * object). `accepted`: the fields whose values the edge did accept, by their domain names, for
 * the rules only a use case can apply to them (a ticket's custom_fields, contract §10).
 */
export interface RefusedBody {
  readonly errors: readonly FieldError[];
  readonly omitted?: number;
  readonly given: readonly string[] | null;
  readonly accepted?: Readonly<Record<string, unknown>>;
}

/** A request body as a typed command, or why it was refused. */
export type DecodedBody<C> = E.Either<RefusedBody, C>;

export const acceptQuery = <Q>(q: DecodedQuery<Q>): Outcome<Q> =>
  E.mapLeft((issues: readonly QueryIssue[]) => invalidQuery(issues))(q);

export const acceptBody = <C>(b: DecodedBody<C>): Outcome<C> =>
  E.mapLeft((r: RefusedBody) => validationFailed(r.errors, r.omitted))(b);

/** A paged query, refused also when its page starts past the items any list serves (every list, every store). */
export const acceptPage = <Q extends PageRequest>(q: DecodedQuery<Q>): Outcome<Q> =>
  E.chain((page: Q): Outcome<Q> => {
    const tooDeep = pageTooDeep(page);
    return tooDeep === null ? E.right(page) : E.left(tooDeep);
  })(acceptQuery(q));

/** Runs `use` on an accepted body; a refused one is answered as ValidationFailed. */
export const withBody = <C, T>(decoded: DecodedBody<C>, use: (input: C) => Promise<Outcome<T>>): Promise<Outcome<T>> =>
  E.isLeft(decoded)
    ? Promise.resolve(E.left(validationFailed(decoded.left.errors, decoded.left.omitted)))
    : use(decoded.right);
