import { gone, notFound } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { canSeeTicket } from '../policy.js';
/**
 * A ticket as the caller may reach it: another customer's ticket does not exist for a
 * customer (not found, deleted or not); a deleted ticket is gone.
 */
export const loadTicket = async (ports, actor, id) => {
    const t = await ports.tickets.findById(id);
    if (t === null || !canSeeTicket(actor, t))
        return E.left(notFound('ticket', id));
    if (t.deletedAt !== null)
        return E.left(gone('ticket', id));
    return E.right(t);
};
//# sourceMappingURL=access.js.map