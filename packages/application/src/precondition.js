import { preconditionFailed } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
/**
 * HTTP If-Match, checked on the state a write is about to replace (every write checks it
 * there, after the caller may see the resource): PreconditionFailed when it no longer holds.
 */
export const checkPrecondition = (options, current) => options.ifMatch === undefined || options.ifMatch(current) ? E.right(current) : E.left(preconditionFailed);
//# sourceMappingURL=precondition.js.map