import {
  forbidden,
  forbiddenFields as forbiddenNamed,
  isStaff,
  statesFor,
  type DomainError,
  type Role,
  type Ticket,
} from '@support/domain';
import type { Actor } from './actor.js';

// The role matrix of contract §3, in one place. A resource the caller may not see is
// "not found" (decided where it is loaded); a visible one with a forbidden operation is
// "forbidden" (decided here).

export const isAdmin = (a: Actor): boolean => a.user.role === 'admin';
export const isCustomer = (a: Actor): boolean => a.user.role === 'customer';
export const staff = (a: Actor): boolean => isStaff(a.user.role);

/** Customers see only their own tickets. */
export const canSeeTicket = (a: Actor, t: Ticket): boolean => !isCustomer(a) || t.customerId === a.user.id;

/** Ticket fields a customer may write (the domain's ticket change rules say which); everything else on a ticket is for agents and admins. */
export { customerTicketFields } from '@support/domain';
/** Customers may close or reopen their tickets, not put them on hold. */
export const customerStates: readonly string[] = statesFor('customer');
/** What anyone may change on their own user. */
export const selfUserFields: readonly string[] = ['name', 'password', 'currentPassword'];

export const requireRole = (a: Actor, roles: readonly Role[], what: string): DomainError | null =>
  roles.includes(a.user.role) ? null : forbidden(`${roleName(a.user.role)} may not ${what}`);

const roleName = (r: Role): string => {
  switch (r) {
    case 'customer':
      return 'customers';
    case 'agent':
      return 'agents';
    case 'admin':
      return 'admins';
  }
};

/** The answer names the fields after the message, in its own words for them. */
export const forbiddenFields = (a: Actor, fields: readonly string[]): DomainError =>
  forbiddenNamed(`${roleName(a.user.role)} may not write ${fields.length === 1 ? 'the field' : 'the fields'}`, fields);
