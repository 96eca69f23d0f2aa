import { forbidden, isStaff, statesFor } from '@support/domain';
// The role matrix of contract §3, in one place. A resource the caller may not see is
// "not found" (decided where it is loaded); a visible one with a forbidden operation is
// "forbidden" (decided here).
export const isAdmin = (a) => a.user.role === 'admin';
export const isCustomer = (a) => a.user.role === 'customer';
export const staff = (a) => isStaff(a.user.role);
/** Customers see only their own tickets. */
export const canSeeTicket = (a, t) => !isCustomer(a) || t.customerId === a.user.id;
/** Ticket fields a customer may write; everything else on a ticket is for agents and admins. */
export const customerTicketFields = ['subject', 'summary', 'state', 'customer_id'];
/** Customers may close or reopen their tickets, not put them on hold. */
export const customerStates = statesFor('customer');
/** What anyone may change on their own user. */
export const selfUserFields = ['name', 'password'];
export const requireRole = (a, roles, what) => roles.includes(a.user.role) ? null : forbidden(`${roleName(a.user.role)} may not ${what}`);
const roleName = (r) => {
    switch (r) {
        case 'customer':
            return 'customers';
        case 'agent':
            return 'agents';
        case 'admin':
            return 'admins';
    }
};
export const forbiddenFields = (a, fields) => forbidden(`${roleName(a.user.role)} may not write ${fields.length === 1 ? 'the field' : 'the fields'} ${fields.join(', ')}`);
//# sourceMappingURL=policy.js.map