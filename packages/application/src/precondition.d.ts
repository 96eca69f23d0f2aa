import type { WriteOptions } from './application.js';
import type { Outcome } from './shared.js';
/**
 * HTTP If-Match, checked on the state a write is about to replace (every write checks it
 * there, after the caller may see the resource): PreconditionFailed when it no longer holds.
 */
export declare const checkPrecondition: <T>(options: WriteOptions<T>, current: T) => Outcome<T>;
//# sourceMappingURL=precondition.d.ts.map