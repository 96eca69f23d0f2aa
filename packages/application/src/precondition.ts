import { preconditionFailed } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Outcome } from './shared.js';

/**
 * A condition on the current state of a resource, checked just before a write
 * (HTTP If-Match). When it does not hold, the write is refused as PreconditionFailed.
 */
export type Precondition<T> = (current: T) => boolean;

export interface WriteOptions<T> {
  readonly ifMatch?: Precondition<T>;
}

/**
 * HTTP If-Match, checked on the state a write is about to replace (every write checks it
 * there, after the caller may see the resource): PreconditionFailed when it no longer holds.
 */
export const checkPrecondition = <T>(options: WriteOptions<T>, current: T): Outcome<T> =>
  options.ifMatch === undefined || options.ifMatch(current) ? E.right(current) : E.left(preconditionFailed);
