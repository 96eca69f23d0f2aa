import { allowedTransitions } from '@support/domain';
import { staff } from '../policy.js';
/** Agents and admins see related users and groups whole; a customer sees themself whole, others by id and name. */
const relatedUser = (actor, u) => staff(actor) || u.id === actor.user.id ? { kind: 'full', value: u } : { kind: 'limited', id: u.id, name: u.name };
const relatedGroup = (actor, g) => staff(actor) ? { kind: 'full', value: g } : { kind: 'limited', id: g.id, name: g.name };
/** Views of tickets with the relations `embed` asked for, loaded in one batch per kind. */
export const withRelations = async (ports, actor, tickets, embed) => {
    // Nothing to load: the common read (no `embed`) needs no batch and no lookups.
    if (embed.length === 0)
        return tickets.map((ticket) => bareView(actor, ticket));
    const embedsCustomer = embed.includes('customer');
    const embedsAssignee = embed.includes('assigned_user');
    const embedsGroup = embed.includes('group');
    const userIds = new Set();
    const groupIds = new Set();
    for (const t of tickets) {
        if (embedsCustomer)
            userIds.add(t.customerId);
        if (embedsAssignee && t.assignedUserId !== null)
            userIds.add(t.assignedUserId);
        if (embedsGroup && t.groupId !== null)
            groupIds.add(t.groupId);
    }
    const [users, groups] = await Promise.all([
        userIds.size > 0 ? ports.users.findByIds([...userIds]) : Promise.resolve([]),
        groupIds.size > 0 ? ports.groups.findByIds([...groupIds]) : Promise.resolve([]),
    ]);
    const userById = new Map(users.map((u) => [u.id, u]));
    const groupById = new Map(groups.map((g) => [g.id, g]));
    const user = (id) => {
        const u = id === null ? undefined : userById.get(id);
        return u === undefined ? null : relatedUser(actor, u);
    };
    return tickets.map((ticket) => {
        const related = {};
        if (embedsCustomer)
            related.customer = user(ticket.customerId);
        if (embedsAssignee)
            related.assigned_user = user(ticket.assignedUserId);
        if (embedsGroup) {
            const g = ticket.groupId === null ? undefined : groupById.get(ticket.groupId);
            related.group = g === undefined ? null : relatedGroup(actor, g);
        }
        return { ticket, related, allowedTransitions: transitionsFor(actor, ticket) };
    });
};
/** The states this caller may move the ticket to now (the domain's state machine, by role). */
const transitionsFor = (actor, t) => allowedTransitions(t.state, t.deletedAt !== null, actor.user.role);
export const bareView = (actor, ticket) => ({ ticket, related: {}, allowedTransitions: transitionsFor(actor, ticket) });
//# sourceMappingURL=relations.js.map