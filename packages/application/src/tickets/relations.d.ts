import { type Ticket, type TicketRelation } from '@support/domain';
import type { Actor } from '../actor.js';
import type { Ports } from '../ports/index.js';
import type { TicketView } from '../views.js';
/** Views of tickets with the relations `embed` asked for, loaded in one batch per kind. */
export declare const withRelations: (ports: Pick<Ports, "users" | "groups">, actor: Actor, tickets: readonly Ticket[], embed: readonly TicketRelation[]) => Promise<TicketView[]>;
export declare const bareView: (actor: Actor, ticket: Ticket) => TicketView;
//# sourceMappingURL=relations.d.ts.map