import { type FieldError, type PageRequest, type QueryIssue } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Outcome } from './shared.js';
/** A query string as typed values, or every bad parameter at once. */
export type DecodedQuery<Q> = E.Either<readonly QueryIssue[], Q>;
/** Why a request body was refused: every bad field at once, and the fields it named (null: it is not an object). */
export interface RefusedBody {
    readonly errors: readonly FieldError[];
    readonly given: readonly string[] | null;
}
/** A request body as a typed command, or why it was refused. */
export type DecodedBody<C> = E.Either<RefusedBody, C>;
export declare const acceptQuery: <Q>(q: DecodedQuery<Q>) => Outcome<Q>;
export declare const acceptBody: <C>(b: DecodedBody<C>) => Outcome<C>;
/** A paged query, refused also when its page starts past the items any list serves (every list, every store). */
export declare const acceptPage: <Q extends PageRequest>(q: DecodedQuery<Q>) => Outcome<Q>;
//# sourceMappingURL=decoded.d.ts.map