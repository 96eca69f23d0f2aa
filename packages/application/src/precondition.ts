import { preconditionFailed } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { WriteOptions } from './application.js';
import type { Outcome } from './shared.js';

/**
 * HTTP If-Match, checked on the state a write is about to replace (every write checks it
 * there, after the caller may see the resource): PreconditionFailed when it no longer holds.
 */
export const checkPrecondition = <T>(options: WriteOptions<T>, current: T): Outcome<T> =>
  options.ifMatch === undefined || options.ifMatch(current) ? E.right(current) : E.left(preconditionFailed);
