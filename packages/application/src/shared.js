import { conflict, preconditionFailed } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
/** The keys of a decoded body that were given (present, even when null). */
export const givenFields = (input) => Object.keys(input);
/**
 * Runs a read-modify-write until the versioned write lands. `attempt` reads the current
 * state, decides and tries to write; 'retry' means another writer came first. With a
 * precondition (If-Match) a lost race is not retried: the condition was checked on a
 * state that no longer exists.
 */
export const withRetries = async (attempt, options, maxAttempts = 64) => {
    for (let i = 0; i < maxAttempts; i++) {
        const r = await attempt();
        if (r !== 'retry')
            return r;
        if (options.ifMatch !== undefined)
            return E.left(preconditionFailed);
    }
    return E.left(conflict('the resource is being changed by others right now; retry the request'));
};
/** Collects the field errors of several independent checks. */
export const allErrors = (...lists) => lists.flat();
//# sourceMappingURL=shared.js.map