import { type Ticket, type TicketId } from '@support/domain';
import type { Actor } from '../actor.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
/**
 * A ticket as the caller may reach it: another customer's ticket does not exist for a
 * customer (not found, deleted or not); a deleted ticket is gone.
 */
export declare const loadTicket: (ports: Pick<Ports, "tickets">, actor: Actor, id: TicketId) => Promise<Outcome<Ticket>>;
//# sourceMappingURL=access.d.ts.map