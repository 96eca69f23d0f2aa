import { feedExpired } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { acceptQuery } from '../decoded.js';
import { withDeadline } from '../deadline.js';
import { requireRole } from '../policy.js';
export const eventsQueryBounds = { perPage: { min: 1, max: 100, fallback: 30 }, waitSeconds: { min: 0, max: 30 } };
/**
 * The events after a cursor, oldest first (contract §7.3). When there are none yet, waits up to
 * `waitSeconds` for one (holding no CPU: the store wakes the waiter) and ends early when
 * `shutdown` aborts. A cursor older than what is kept is refused, naming the oldest kept seq,
 * so a consumer never silently skips events.
 */
export const readEvents = async (ports, actor, decoded, shutdown) => {
    const denied = requireRole(actor, ['agent', 'admin'], 'read the change feed');
    if (denied !== null)
        return E.left(denied);
    const accepted = acceptQuery(decoded);
    if (E.isLeft(accepted))
        return accepted;
    const query = accepted.right;
    const { oldest, newest } = await ports.events.bounds();
    // Events after `after` are all kept when the oldest kept one is at most after + 1.
    const firstKept = oldest ?? newest + 1;
    if (query.after + 1 < firstKept)
        return E.left(feedExpired(firstKept));
    let items = await ports.events.after(query.after, query.perPage);
    if (items.length === 0 && query.waitSeconds > 0 && !shutdown.aborted) {
        await withDeadline(shutdown, query.waitSeconds * 1000, (signal) => ports.events.waitFor(query.after, signal));
        items = await ports.events.after(query.after, query.perPage);
    }
    return E.right({ items, next: items[items.length - 1]?.seq ?? query.after });
};
export const forgetOldEvents = (ports, config) => ports.events.forget(ports.clock.now() - config.retentionDays * 86_400_000);
//# sourceMappingURL=feed.js.map