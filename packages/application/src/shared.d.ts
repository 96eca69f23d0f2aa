import { type DomainError, type FieldError } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
export type Outcome<T> = E.Either<DomainError, T>;
/** The keys of a decoded body that were given (present, even when null). */
export declare const givenFields: (input: object) => string[];
/**
 * Runs a read-modify-write until the versioned write lands. `attempt` reads the current
 * state, decides and tries to write; 'retry' means another writer came first. With a
 * precondition (If-Match) a lost race is not retried: the condition was checked on a
 * state that no longer exists.
 */
export declare const withRetries: <T>(attempt: () => Promise<Outcome<T> | "retry">, options: {
    readonly ifMatch?: unknown;
}, maxAttempts?: number) => Promise<Outcome<T>>;
/** Collects the field errors of several independent checks. */
export declare const allErrors: (...lists: readonly (readonly FieldError[])[]) => FieldError[];
//# sourceMappingURL=shared.d.ts.map