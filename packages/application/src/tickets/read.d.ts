import { type TicketId, type TicketQuery, type TicketRelation } from '@support/domain';
import type { Actor } from '../actor.js';
import { type DecodedQuery } from '../decoded.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import type { TicketList, TicketView } from '../views.js';
export declare const listTickets: (ports: Ports, actor: Actor, decoded: DecodedQuery<TicketQuery>) => Promise<Outcome<TicketList>>;
export declare const getTicket: (ports: Ports, actor: Actor, id: TicketId, decoded: DecodedQuery<readonly TicketRelation[]>) => Promise<Outcome<TicketView>>;
//# sourceMappingURL=read.d.ts.map