import { pageOffset, ticketFilter } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { acceptPage, acceptQuery } from '../decoded.js';
import { isCustomer } from '../policy.js';
import { loadTicket } from './access.js';
import { withRelations } from './relations.js';
export const listTickets = async (ports, actor, decoded) => {
    const accepted = acceptPage(decoded);
    if (E.isLeft(accepted))
        return accepted;
    const query = accepted.right;
    const filter = ticketFilter(query, isCustomer(actor) ? actor.user.id : null, ports.clock.now());
    const page = await ports.tickets.search(filter, query.sort, pageOffset(query), query.perPage);
    const items = await withRelations(ports, actor, page.items, query.embed);
    return E.right({ items, total: page.total, page: { page: query.page, perPage: query.perPage } });
};
export const getTicket = async (ports, actor, id, decoded) => {
    const embed = acceptQuery(decoded);
    if (E.isLeft(embed))
        return embed;
    const t = await loadTicket(ports, actor, id);
    if (E.isLeft(t))
        return t;
    const [view] = await withRelations(ports, actor, [t.right], embed.right);
    if (view === undefined)
        throw new Error('withRelations lost a ticket');
    return E.right(view);
};
//# sourceMappingURL=read.js.map