import { type DomainError, type Role, type Ticket } from '@support/domain';
import type { Actor } from './actor.js';
export declare const isAdmin: (a: Actor) => boolean;
export declare const isCustomer: (a: Actor) => boolean;
export declare const staff: (a: Actor) => boolean;
/** Customers see only their own tickets. */
export declare const canSeeTicket: (a: Actor, t: Ticket) => boolean;
/** Ticket fields a customer may write; everything else on a ticket is for agents and admins. */
export declare const customerTicketFields: readonly string[];
/** Customers may close or reopen their tickets, not put them on hold. */
export declare const customerStates: readonly string[];
/** What anyone may change on their own user. */
export declare const selfUserFields: readonly string[];
export declare const requireRole: (a: Actor, roles: readonly Role[], what: string) => DomainError | null;
export declare const forbiddenFields: (a: Actor, fields: readonly string[]) => DomainError;
//# sourceMappingURL=policy.d.ts.map