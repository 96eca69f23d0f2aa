import { authUseCases } from './auth/use-cases.js';
import { createGroupUseCase, deleteGroupUseCase, getGroup, groupMembers, listGroups, patchGroupUseCase, replaceGroupUseCase, } from './groups/use-cases.js';
import { createMessageUseCase, deleteMessageUseCase, getMessage, listMessages, patchMessageUseCase, replaceMessageUseCase, } from './messages/use-cases.js';
import { beginIdempotent, idempotencyScope } from './idempotency/use-case.js';
import { forgetOldEvents, readEvents } from './events/feed.js';
import { consumeRateLimit } from './rate-limit.js';
import { ensureFirstAdmin } from './setup.js';
import { getTicket, listTickets } from './tickets/read.js';
import { createTicketUseCase, deleteTicketUseCase, patchTicketUseCase, replaceTicketUseCase } from './tickets/write.js';
import { webhookUseCases } from './webhooks/index.js';
import { createUserUseCase, deleteUserUseCase, getUser, listUsers, patchUserUseCase, replaceUserUseCase, } from './users/use-cases.js';
/** The application: every use case bound to the ports it runs on. */
export const createApplication = (ports, config) => ({
    events: {
        list: (actor, query, shutdown) => readEvents(ports, actor, query, shutdown),
        forgetOld: () => forgetOldEvents(ports, config.events),
    },
    webhooks: webhookUseCases(ports, config.webhooks),
    auth: authUseCases(ports, config.auth),
    rateLimit: { consume: (subject) => consumeRateLimit(ports, config.rateLimit, subject) },
    idempotency: {
        begin: (actor, clientIp, key, fingerprint) => beginIdempotent(ports, config.idempotency, idempotencyScope(actor, clientIp), key, fingerprint),
    },
    tickets: {
        list: (actor, query) => listTickets(ports, actor, query),
        get: (actor, id, embed) => getTicket(ports, actor, id, embed),
        create: (actor, input) => createTicketUseCase(ports, actor, input),
        replace: (actor, id, input, options) => replaceTicketUseCase(ports, actor, id, input, options),
        patch: (actor, id, input, options) => patchTicketUseCase(ports, actor, id, input, options),
        delete: (actor, id, options) => deleteTicketUseCase(ports, actor, id, options),
    },
    messages: {
        list: (actor, ticketId, page) => listMessages(ports, actor, ticketId, page),
        get: (actor, ticketId, number) => getMessage(ports, actor, ticketId, number),
        create: (actor, ticketId, input) => createMessageUseCase(ports, actor, ticketId, input),
        replace: (actor, ticketId, number, input, options) => replaceMessageUseCase(ports, actor, ticketId, number, input, options),
        patch: (actor, ticketId, number, input, options) => patchMessageUseCase(ports, actor, ticketId, number, input, options),
        delete: (actor, ticketId, number, options) => deleteMessageUseCase(ports, actor, ticketId, number, options),
    },
    users: {
        list: (actor, page) => listUsers(ports, actor, page),
        get: (actor, id) => getUser(ports, actor, id),
        create: (actor, input) => createUserUseCase(ports, actor, input),
        replace: (actor, id, input, options) => replaceUserUseCase(ports, actor, id, input, options),
        patch: (actor, id, input, options) => patchUserUseCase(ports, actor, id, input, options),
        delete: (actor, id, options) => deleteUserUseCase(ports, actor, id, options),
    },
    groups: {
        list: (actor, page) => listGroups(ports, actor, page),
        get: (actor, id) => getGroup(ports, actor, id),
        members: (actor, id, page) => groupMembers(ports, actor, id, page),
        create: (actor, input) => createGroupUseCase(ports, actor, input),
        replace: (actor, id, input, options) => replaceGroupUseCase(ports, actor, id, input, options),
        patch: (actor, id, input, options) => patchGroupUseCase(ports, actor, id, input, options),
        delete: (actor, id, options) => deleteGroupUseCase(ports, actor, id, options),
    },
    setup: { ensureFirstAdmin: (email, password, beforeCreate) => ensureFirstAdmin(ports, email, password, beforeCreate) },
    health: { ready: () => ports.health.ping() },
});
//# sourceMappingURL=create-application.js.map