import { applyGroupChanges, fieldError, notFound, pageOffset, validationFailed, } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { acceptBody, acceptPage } from '../decoded.js';
import { checkPrecondition } from '../precondition.js';
import { requireRole } from '../policy.js';
import { withRetries } from '../shared.js';
const nameTaken = (name) => fieldError('name', 'not_unique', `a group named "${name}" already exists`);
const readable = (actor) => {
    const denied = requireRole(actor, ['agent', 'admin'], 'read groups');
    return denied === null ? E.right(null) : E.left(denied);
};
const writable = (actor) => {
    const denied = requireRole(actor, ['admin'], 'change groups');
    return denied === null ? E.right(null) : E.left(denied);
};
const loadGroup = async (ports, id) => {
    const g = await ports.groups.findById(id);
    return g === null ? E.left(notFound('group', id)) : E.right(g);
};
export const listGroups = async (ports, actor, decoded) => {
    const ok = readable(actor);
    if (E.isLeft(ok))
        return ok;
    const page = acceptPage(decoded);
    if (E.isLeft(page))
        return page;
    const found = await ports.groups.list(pageOffset(page.right), page.right.perPage);
    return E.right({ items: found.items, total: found.total, page: page.right });
};
export const getGroup = async (ports, actor, id) => {
    const ok = readable(actor);
    return E.isLeft(ok) ? ok : loadGroup(ports, id);
};
export const groupMembers = async (ports, actor, id, decoded) => {
    const ok = readable(actor);
    if (E.isLeft(ok))
        return ok;
    const page = acceptPage(decoded);
    if (E.isLeft(page))
        return page;
    const group = await loadGroup(ports, id);
    if (E.isLeft(group))
        return group;
    const found = await ports.users.list(id, pageOffset(page.right), page.right.perPage);
    return E.right({ items: found.items, total: found.total, page: page.right });
};
export const createGroupUseCase = async (ports, actor, decoded) => {
    const ok = writable(actor);
    if (E.isLeft(ok))
        return ok;
    const input = acceptBody(decoded);
    if (E.isLeft(input))
        return input;
    const now = ports.clock.now();
    const group = {
        id: (await ports.ids.next('group')),
        name: input.right.name,
        description: input.right.description ?? '',
        createdAt: now,
        updatedAt: now,
        version: 1,
    };
    return (await ports.groups.insert(group)) === 'ok' ? E.right(group) : E.left(validationFailed([nameTaken(group.name)]));
};
const updateGroup = (ports, actor, id, changes, options) => withRetries(async () => {
    const ok = readable(actor);
    if (E.isLeft(ok))
        return ok;
    const loaded = await loadGroup(ports, id);
    if (E.isLeft(loaded))
        return loaded;
    const allowed = writable(actor);
    if (E.isLeft(allowed))
        return allowed;
    const current = loaded.right;
    const held = checkPrecondition(options, current);
    if (E.isLeft(held))
        return held;
    const next = applyGroupChanges(current, changes(current), ports.clock.now());
    if (next === current)
        return E.right(current);
    const written = await ports.groups.update(next, current.version);
    if (written === 'name_taken')
        return E.left(validationFailed([nameTaken(next.name)]));
    return written === 'ok' ? E.right(next) : 'retry';
}, options);
export const replaceGroupUseCase = (ports, actor, id, decoded, options = {}) => {
    const input = acceptBody(decoded);
    if (E.isLeft(input))
        return Promise.resolve(input);
    return updateGroup(ports, actor, id, () => ({ name: input.right.name, description: input.right.description ?? '' }), options);
};
export const patchGroupUseCase = (ports, actor, id, decoded, options = {}) => {
    const accepted = acceptBody(decoded);
    if (E.isLeft(accepted))
        return Promise.resolve(accepted);
    const input = accepted.right;
    return updateGroup(ports, actor, id, (g) => ({ name: input.name ?? g.name, description: input.description === undefined ? g.description : (input.description ?? '') }), options);
};
export const deleteGroupUseCase = async (ports, actor, id, options = {}) => {
    const ok = readable(actor);
    if (E.isLeft(ok))
        return ok;
    const loaded = await loadGroup(ports, id);
    if (E.isLeft(loaded))
        return loaded;
    const allowed = writable(actor);
    if (E.isLeft(allowed))
        return allowed;
    const held = checkPrecondition(options, loaded.right);
    if (E.isLeft(held))
        return held;
    if (!(await ports.groups.delete(id, ports.clock.now())))
        return E.left(notFound('group', id));
    // Members leave the group and its tickets lose it; users and tickets themselves stay.
    const now = ports.clock.now();
    await ports.users.removeGroup(id, now);
    await ports.tickets.clearGroup(id, now);
    return E.right(loaded.right);
};
//# sourceMappingURL=use-cases.js.map