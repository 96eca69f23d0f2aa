import { invalidQuery, pageTooDeep, validationFailed } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
export const acceptQuery = (q) => E.mapLeft((issues) => invalidQuery(issues))(q);
export const acceptBody = (b) => E.mapLeft((r) => validationFailed(r.errors))(b);
/** A paged query, refused also when its page starts past the items any list serves (every list, every store). */
export const acceptPage = (q) => E.chain((page) => {
    const tooDeep = pageTooDeep(page);
    return tooDeep === null ? E.right(page) : E.left(tooDeep);
})(acceptQuery(q));
//# sourceMappingURL=decoded.js.map