import { applyMessageChanges, createMessage, deleteMessage, forbidden, gone, notFound, pageOffset, patchMessageChanges, replacementMessageChanges, touchTicket, } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { acceptBody, acceptPage } from '../decoded.js';
import { checkPrecondition } from '../precondition.js';
import { isCustomer, staff } from '../policy.js';
import { withRetries } from '../shared.js';
import { loadTicket } from '../tickets/access.js';
const messageId = (ticketId, n) => `${ticketId}/${n}`;
/** A message as the caller may reach it: to a customer an internal note does not exist. */
const loadMessage = async (ports, actor, ticketId, number) => {
    const ticket = await loadTicket(ports, actor, ticketId);
    if (E.isLeft(ticket))
        return ticket;
    const m = await ports.messages.find(ticketId, number);
    if (m === null || (m.internal && !staff(actor)))
        return E.left(notFound('message', messageId(ticketId, number)));
    if (m.deletedAt !== null)
        return E.left(gone('message', messageId(ticketId, number)));
    return E.right(m);
};
/** Customers edit and delete only what they wrote, and never make a note internal. */
const mayChange = (actor, m, changes) => {
    if (!isCustomer(actor))
        return E.right(null);
    if (m.authorId !== actor.user.id)
        return E.left(forbidden('customers may change only messages they wrote'));
    if (changes?.internal === true)
        return E.left(forbidden('customers may not write internal notes'));
    return E.right(null);
};
export const listMessages = async (ports, actor, ticketId, decoded) => {
    const page = acceptPage(decoded);
    if (E.isLeft(page))
        return page;
    const ticket = await loadTicket(ports, actor, ticketId);
    if (E.isLeft(ticket))
        return ticket;
    const found = await ports.messages.list(ticketId, staff(actor), pageOffset(page.right), page.right.perPage);
    return E.right({ items: found.items, total: found.total, page: page.right });
};
export const getMessage = (ports, actor, ticketId, number) => loadMessage(ports, actor, ticketId, number);
export const createMessageUseCase = async (ports, actor, ticketId, decoded) => {
    const ticket = await loadTicket(ports, actor, ticketId);
    if (E.isLeft(ticket))
        return ticket;
    const input = acceptBody(decoded);
    if (E.isLeft(input))
        return input;
    if (isCustomer(actor) && input.right.internal === true)
        return E.left(forbidden('customers may not write internal notes'));
    const number = (await ports.ids.next(`message:${ticketId}`));
    const message = createMessage(ticketId, number, input.right, actor.user.id, ports.clock.now());
    await ports.messages.insert(message);
    // A new message is activity on its ticket: its updated_at moves.
    await withRetries(async () => {
        const t = await ports.tickets.findById(ticketId);
        if (t === null || t.deletedAt !== null)
            return E.right(null);
        return (await ports.tickets.update(touchTicket(t, message.createdAt), t.version)) ? E.right(null) : 'retry';
    }, {});
    return E.right(message);
};
const updateMessage = (ports, actor, ticketId, number, changes, options) => withRetries(async () => {
    const loaded = await loadMessage(ports, actor, ticketId, number);
    if (E.isLeft(loaded))
        return loaded;
    const current = loaded.right;
    const wanted = changes(current);
    const allowed = mayChange(actor, current, wanted);
    if (E.isLeft(allowed))
        return allowed;
    const held = checkPrecondition(options, current);
    if (E.isLeft(held))
        return held;
    const next = applyMessageChanges(current, wanted, ports.clock.now());
    if (next === current)
        return E.right(current);
    return (await ports.messages.update(next, current.version)) ? E.right(next) : 'retry';
}, options);
export const replaceMessageUseCase = (ports, actor, ticketId, number, decoded, options = {}) => {
    const input = acceptBody(decoded);
    if (E.isLeft(input))
        return Promise.resolve(input);
    return updateMessage(ports, actor, ticketId, number, () => replacementMessageChanges(input.right), options);
};
export const patchMessageUseCase = (ports, actor, ticketId, number, decoded, options = {}) => {
    const input = acceptBody(decoded);
    if (E.isLeft(input))
        return Promise.resolve(input);
    return updateMessage(ports, actor, ticketId, number, (m) => patchMessageChanges(m, input.right), options);
};
export const deleteMessageUseCase = (ports, actor, ticketId, number, options = {}) => withRetries(async () => {
    const loaded = await loadMessage(ports, actor, ticketId, number);
    if (E.isLeft(loaded))
        return loaded;
    const allowed = mayChange(actor, loaded.right, null);
    if (E.isLeft(allowed))
        return allowed;
    const held = checkPrecondition(options, loaded.right);
    if (E.isLeft(held))
        return held;
    const deleted = deleteMessage(loaded.right, ports.clock.now());
    return (await ports.messages.update(deleted, loaded.right.version)) ? E.right(deleted) : 'retry';
}, options);
//# sourceMappingURL=use-cases.js.map