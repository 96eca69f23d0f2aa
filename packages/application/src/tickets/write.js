import { applyTicketChanges, createTicket, deleteTicket, fieldError, forbidden, patchChanges, replacementChanges, validationFailed, } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { acceptBody } from '../decoded.js';
import { checkPrecondition } from '../precondition.js';
import { customerStates, customerTicketFields, forbiddenFields, isCustomer, requireRole } from '../policy.js';
import { allErrors, givenFields, withRetries } from '../shared.js';
import { loadTicket } from './access.js';
import { checkAssignee, checkGroup, resolveCustomer } from './references.js';
import { bareView } from './relations.js';
/** What a customer may not write in this body: fields beyond theirs, another customer, or a state other than open/closed. */
const customerViolations = (actor, input) => {
    const fields = givenFields(input).filter((f) => !customerTicketFields.includes(f));
    if (input.customer_id !== undefined && input.customer_id !== actor.user.id)
        fields.push('customer_id');
    if (input.state !== undefined && !customerStates.includes(input.state))
        fields.push('state');
    return fields;
};
const refusal = (actor, input) => {
    if (!isCustomer(actor))
        return E.right(null);
    const fields = customerViolations(actor, input);
    if (fields.length === 0)
        return E.right(null);
    return E.left(fields.length === 1 && fields[0] === 'state'
        ? forbidden('customers may close or reopen a ticket, not set it to pending')
        : forbiddenFields(actor, fields));
};
const customerRequired = fieldError('customer_id', 'required', 'is required when an agent or admin creates a ticket');
/**
 * Every bad field at once: a refused body still reports a missing customer_id. A body that is
 * not a JSON object (`given` null) has no fields to report on: it answers its one error.
 */
const withMissingCustomer = (actor, refused) => {
    const missing = !isCustomer(actor) && refused.given !== null && !refused.given.includes('customer_id');
    return validationFailed(missing ? [...refused.errors, customerRequired] : refused.errors);
};
export const createTicketUseCase = async (ports, actor, decoded) => {
    if (E.isLeft(decoded))
        return E.left(withMissingCustomer(actor, decoded.left));
    const input = decoded.right;
    const refused = refusal(actor, input);
    if (E.isLeft(refused))
        return refused;
    let customer = isCustomer(actor) ? { id: actor.user.id, name: actor.user.name } : null;
    const errors = [];
    if (customer === null) {
        if (input.customer_id === undefined) {
            errors.push(customerRequired);
        }
        else {
            const resolved = await resolveCustomer(ports, input.customer_id);
            customer = resolved.customer;
            errors.push(...resolved.errors);
        }
    }
    errors.push(...(await checkAssignee(ports, input.assigned_user_id)), ...(await checkGroup(ports, input.group_id)));
    if (errors.length > 0 || customer === null)
        return E.left(validationFailed(errors));
    const id = (await ports.ids.next('ticket'));
    const ticket = createTicket(id, input, customer, ports.clock.now());
    await ports.tickets.insert(ticket);
    return E.right(bareView(actor, ticket));
};
/** A customer's replacement replaces only what customers write: subject, summary (default '') and state (default open). */
const customerReplacement = (input) => (current) => ({
    ...patchChanges(current, {}, null),
    subject: input.subject,
    summary: input.summary ?? '',
    state: input.state ?? 'open',
});
const updateTicket = async (ports, actor, id, input, changes, options) => {
    const first = await loadTicket(ports, actor, id);
    if (E.isLeft(first))
        return first;
    const refused = refusal(actor, input);
    if (E.isLeft(refused))
        return refused;
    let customer = null;
    const referenceErrors = [];
    if (input.customer_id !== undefined && input.customer_id !== first.right.customerId) {
        const resolved = await resolveCustomer(ports, input.customer_id);
        customer = resolved.customer;
        referenceErrors.push(...resolved.errors);
    }
    if (input.assigned_user_id !== first.right.assignedUserId)
        referenceErrors.push(...(await checkAssignee(ports, input.assigned_user_id)));
    if (input.group_id !== first.right.groupId)
        referenceErrors.push(...(await checkGroup(ports, input.group_id)));
    // The first attempt reuses the ticket loaded above; a retry after a lost race reloads it.
    let preloaded = first.right;
    return withRetries(async () => {
        const loaded = preloaded === null ? await loadTicket(ports, actor, id) : E.right(preloaded);
        preloaded = null;
        if (E.isLeft(loaded))
            return loaded;
        const current = loaded.right;
        const held = checkPrecondition(options, bareView(actor, current));
        if (E.isLeft(held))
            return held;
        const applied = applyTicketChanges(current, changes(current, customer), ports.clock.now());
        // A refused state change says where the ticket may go instead, for this caller (contract §7.2).
        const transitionErrors = E.isLeft(applied) ? applied.left.map((f) => (f.code === 'invalid_transition' ? { ...f, allowed: bareView(actor, current).allowedTransitions } : f)) : [];
        const errors = allErrors(referenceErrors, transitionErrors);
        if (errors.length > 0 || E.isLeft(applied))
            return E.left(validationFailed(errors));
        if (applied.right === current)
            return E.right(bareView(actor, current));
        return (await ports.tickets.update(applied.right, current.version)) ? E.right(bareView(actor, applied.right)) : 'retry';
    }, options);
};
export const replaceTicketUseCase = async (ports, actor, id, decoded, options = {}) => {
    const accepted = acceptBody(decoded);
    if (E.isLeft(accepted))
        return accepted;
    const input = accepted.right;
    const changes = isCustomer(actor)
        ? customerReplacement(input)
        : (current, customer) => replacementChanges(current, input, customer);
    return updateTicket(ports, actor, id, input, changes, options);
};
export const patchTicketUseCase = async (ports, actor, id, decoded, options = {}) => {
    const accepted = acceptBody(decoded);
    if (E.isLeft(accepted))
        return accepted;
    const input = accepted.right;
    return updateTicket(ports, actor, id, input, (current, customer) => patchChanges(current, input, customer), options);
};
export const deleteTicketUseCase = async (ports, actor, id, options = {}) => withRetries(async () => {
    const current = await loadTicket(ports, actor, id);
    if (E.isLeft(current))
        return current;
    const denied = requireRole(actor, ['admin'], 'delete tickets');
    if (denied !== null)
        return E.left(denied);
    const held = checkPrecondition(options, bareView(actor, current.right));
    if (E.isLeft(held))
        return held;
    const deleted = deleteTicket(current.right, ports.clock.now());
    return (await ports.tickets.update(deleted, current.right.version)) ? E.right(bareView(actor, deleted)) : 'retry';
}, options);
//# sourceMappingURL=write.js.map