import {
  invalidQuery,
  pageOffset,
  pageTooDeep,
  parseRepresentationOptions,
  parseTicketQuery,
  ticketFilter,
  type QueryIssue,
  type QueryParams,
  type TicketId,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../actor.js';
import { isCustomer } from '../policy.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import type { TicketList, TicketRead } from '../views.js';
import { loadTicket } from './access.js';
import { withRelations } from './relations.js';

export const listTickets = async (
  ports: Ports,
  actor: Actor,
  params: QueryParams,
  alias?: 'recently_closed',
): Promise<Outcome<TicketList>> => {
  const parsed = parseTicketQuery(params, alias === undefined ? {} : { alias });
  if (E.isLeft(parsed)) return parsed;
  const query = parsed.right;
  const tooDeep = pageTooDeep(query);
  if (tooDeep !== null) return E.left(tooDeep);
  const filter = ticketFilter(query, isCustomer(actor) ? actor.user.id : null, ports.clock.now());
  const page = await ports.tickets.search(filter, query.sort, pageOffset(query), query.perPage);
  const items = await withRelations(ports, actor, page.items, query.embed);
  return E.right({
    items,
    total: page.total,
    page: { page: query.page, perPage: query.perPage },
    options: { fields: query.fields, embed: query.embed },
  });
};

export const getTicket = async (ports: Ports, actor: Actor, id: TicketId, params: QueryParams): Promise<Outcome<TicketRead>> => {
  const issues: QueryIssue[] = [];
  const options = parseRepresentationOptions(params, issues);
  if (issues.length > 0) return E.left(invalidQuery(issues));
  const t = await loadTicket(ports, actor, id);
  if (E.isLeft(t)) return t;
  const [view] = await withRelations(ports, actor, [t.right], options.embed);
  if (view === undefined) throw new Error('withRelations lost a ticket');
  return E.right({ view, options });
};
