import {
  invalidQuery,
  pageOffset,
  resolveCustomQuery,
  ticketFilter,
  unknownKeys,
  type TicketId,
  type TicketQuery,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import { acceptPage, acceptQuery, type DecodedQuery } from '../decoded.js';
import { isCustomer } from '../policy.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import { fieldsFor } from '../ticket-fields/use-cases.js';
import type { TicketList, TicketReadQuery, TicketView } from '../views.js';
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
  const fields = await fieldsFor(ports, actor);
  const custom = resolveCustomQuery(fields, query);
  if (E.isLeft(custom)) return E.left(invalidQuery(custom.left));
  const customerId = isCustomer(actor) ? actor.user.id : null;
  const filter = ticketFilter(query, customerId, ports.clock.now(), actor.user.id, custom.right.filter);
  const page = await ports.tickets.search(filter, custom.right.sort, pageOffset(query), query.perPage);
  const items = await withRelations(ports, actor, page.items, query.embed, fields);
  return E.right({ items, total: page.total, page: { page: query.page, perPage: query.perPage } });
};

export const getTicket = async (
  ports: Ports,
  actor: Actor,
  id: TicketId,
  decoded: DecodedQuery<TicketReadQuery>,
): Promise<Outcome<TicketView>> => {
  const query = acceptQuery(decoded);
  if (E.isLeft(query)) return query;
  const t = await loadTicket(ports, actor, id);
  if (E.isLeft(t)) return t;
  const fields = await fieldsFor(ports, actor);
  const unknown = unknownKeys(fields, query.right.customKeys);
  if (unknown.length > 0) return E.left(invalidQuery(unknown));
  const [view] = await withRelations(ports, actor, [t.right], query.right.embed, fields);
  if (view === undefined) throw new Error('withRelations lost a ticket');
  return E.right(view);
};
