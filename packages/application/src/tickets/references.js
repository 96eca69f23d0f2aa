import { fieldError, isStaff } from '@support/domain';
/** Checks that a named customer exists; returns it with its name (tickets keep a copy). */
export const resolveCustomer = async (ports, id) => {
    const u = await ports.users.findById(id);
    return u === null
        ? { customer: null, errors: [fieldError('customer_id', 'unknown_reference', `there is no user ${id}`)] }
        : { customer: { id: u.id, name: u.name }, errors: [] };
};
/** An assignee must be an agent or an admin. */
export const checkAssignee = async (ports, id) => {
    if (id === null || id === undefined)
        return [];
    const u = await ports.users.findById(id);
    if (u === null)
        return [fieldError('assigned_user_id', 'unknown_reference', `there is no user ${id}`)];
    return isStaff(u.role) ? [] : [fieldError('assigned_user_id', 'unknown_reference', `user ${id} is a customer; tickets are assigned to agents or admins`)];
};
export const checkGroup = async (ports, id) => {
    if (id === null || id === undefined)
        return [];
    return (await ports.groups.findById(id)) === null ? [fieldError('group_id', 'unknown_reference', `there is no group ${id}`)] : [];
};
//# sourceMappingURL=references.js.map