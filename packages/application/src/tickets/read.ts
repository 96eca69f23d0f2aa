import { pageOffset, ticketFilter, type TicketId, type TicketQuery, type TicketRelation } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import { acceptPage, acceptQuery, type DecodedQuery } from '../decoded.js';
import { isCustomer } from '../policy.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import type { TicketList, TicketView } from '../views.js';
import { loadTicket } from './access.js';
import { withRelations } from './relations.js';

export const listTickets = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedQuery<TicketQuery>,
): Promise<Outcome<TicketList>> => {
  const accepted = acceptPage(decoded);
  if (E.isLeft(accepted)) return accepted;
  const query = accepted.right;
  const filter = ticketFilter(query, isCustomer(actor) ? actor.user.id : null, ports.clock.now(), actor.user.id);
  const page = await ports.tickets.search(filter, query.sort, pageOffset(query), query.perPage);
  const items = await withRelations(ports, actor, page.items, query.embed);
  return E.right({ items, total: page.total, page: { page: query.page, perPage: query.perPage } });
};

export const getTicket = async (
  ports: Ports,
  actor: Actor,
  id: TicketId,
  decoded: DecodedQuery<readonly TicketRelation[]>,
): Promise<Outcome<TicketView>> => {
  const embed = acceptQuery(decoded);
  if (E.isLeft(embed)) return embed;
  const t = await loadTicket(ports, actor, id);
  if (E.isLeft(t)) return t;
  const [view] = await withRelations(ports, actor, [t.right], embed.right);
  if (view === undefined) throw new Error('withRelations lost a ticket');
  return E.right(view);
};
