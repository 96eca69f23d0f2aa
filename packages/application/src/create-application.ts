import type { Application } from './application.js';
import type { AuthConfig } from './auth/oauth.js';
import { authUseCases } from './auth/use-cases.js';
import {
  createGroupUseCase,
  deleteGroupUseCase,
  getGroup,
  groupMembers,
  listGroups,
  patchGroupUseCase,
  replaceGroupUseCase,
} from './groups/use-cases.js';
import {
  createMessageUseCase,
  deleteMessageUseCase,
  getMessage,
  listMessages,
  patchMessageUseCase,
  replaceMessageUseCase,
} from './messages/use-cases.js';
import { beginIdempotent, idempotencyScope, type IdempotencyConfig } from './idempotency/use-case.js';
import { forgetOldEvents, readEvents, type EventsConfig } from './events/feed.js';
import type { Ports } from './ports/index.js';
import { createPersonalToken, getPersonalToken, listPersonalTokens, revokePersonalToken } from './tokens/use-cases.js';
import { operationNeeds as needs, scoped } from './scopes.js';
import { consumeRateLimit, type RateLimitConfig } from './rate-limit.js';
import { ensureFirstAdmin } from './setup.js';
import { getTicket, listTickets } from './tickets/read.js';
import { createTicketUseCase, deleteTicketUseCase, patchTicketUseCase, replaceTicketUseCase } from './tickets/write.js';
import type { DeliveryConfig } from './webhooks/deliver.js';
import { webhookUseCases } from './webhooks/index.js';
import {
  createUserUseCase,
  deleteUserUseCase,
  getUser,
  listUsers,
  patchUserUseCase,
  replaceUserUseCase,
} from './users/use-cases.js';

export interface ApplicationConfig {
  readonly auth: AuthConfig;
  readonly rateLimit: RateLimitConfig;
  readonly idempotency: IdempotencyConfig;
  readonly events: EventsConfig;
  readonly webhooks: DeliveryConfig;
}

/** The application: every use case bound to the ports it runs on. */
export const createApplication = (ports: Ports, config: ApplicationConfig): Application => ({
  events: {
    list: scoped(needs.events.list, (actor, query, shutdown) => readEvents(ports, actor, query, shutdown)),
    forgetOld: () => forgetOldEvents(ports, config.events),
  },
  webhooks: webhookUseCases(ports, config.webhooks),
  auth: authUseCases(ports, config.auth),
  rateLimit: { consume: (subject) => consumeRateLimit(ports, config.rateLimit, subject) },
  idempotency: {
    begin: (actor, clientIp, key, fingerprint) => beginIdempotent(ports, config.idempotency, idempotencyScope(actor, clientIp), key, fingerprint),
  },
  tickets: {
    list: scoped(needs.tickets.list, (actor, query) => listTickets(ports, actor, query)),
    get: scoped(needs.tickets.get, (actor, id, embed) => getTicket(ports, actor, id, embed)),
    create: scoped(needs.tickets.create, (actor, input) => createTicketUseCase(ports, actor, input)),
    replace: scoped(needs.tickets.replace, (actor, id, input, options) => replaceTicketUseCase(ports, actor, id, input, options)),
    patch: scoped(needs.tickets.patch, (actor, id, input, options) => patchTicketUseCase(ports, actor, id, input, options)),
    delete: scoped(needs.tickets.delete, (actor, id, options) => deleteTicketUseCase(ports, actor, id, options)),
  },
  messages: {
    list: scoped(needs.messages.list, (actor, ticketId, page) => listMessages(ports, actor, ticketId, page)),
    get: scoped(needs.messages.get, (actor, ticketId, number) => getMessage(ports, actor, ticketId, number)),
    create: scoped(needs.messages.create, (actor, ticketId, input) => createMessageUseCase(ports, actor, ticketId, input)),
    replace: scoped(needs.messages.replace, (actor, ticketId, number, input, options) => replaceMessageUseCase(ports, actor, ticketId, number, input, options)),
    patch: scoped(needs.messages.patch, (actor, ticketId, number, input, options) => patchMessageUseCase(ports, actor, ticketId, number, input, options)),
    delete: scoped(needs.messages.delete, (actor, ticketId, number, options) => deleteMessageUseCase(ports, actor, ticketId, number, options)),
  },
  users: {
    me: scoped(needs.users.me, (actor) => getUser(ports, actor, 'me')),
    list: scoped(needs.users.list, (actor, page) => listUsers(ports, actor, page)),
    get: scoped(needs.users.get, (actor, id) => getUser(ports, actor, id)),
    create: scoped(needs.users.create, (actor, input) => createUserUseCase(ports, actor, input)),
    replace: scoped(needs.users.replace, (actor, id, input, options) => replaceUserUseCase(ports, actor, id, input, options)),
    patch: scoped(needs.users.patch, (actor, id, input, options) => patchUserUseCase(ports, actor, id, input, options)),
    delete: scoped(needs.users.delete, (actor, id, options) => deleteUserUseCase(ports, actor, id, options)),
  },
  groups: {
    list: scoped(needs.groups.list, (actor, page) => listGroups(ports, actor, page)),
    get: scoped(needs.groups.get, (actor, id) => getGroup(ports, actor, id)),
    members: scoped(needs.groups.members, (actor, id, page) => groupMembers(ports, actor, id, page)),
    create: scoped(needs.groups.create, (actor, input) => createGroupUseCase(ports, actor, input)),
    replace: scoped(needs.groups.replace, (actor, id, input, options) => replaceGroupUseCase(ports, actor, id, input, options)),
    patch: scoped(needs.groups.patch, (actor, id, input, options) => patchGroupUseCase(ports, actor, id, input, options)),
    delete: scoped(needs.groups.delete, (actor, id, options) => deleteGroupUseCase(ports, actor, id, options)),
  },
  tokens: {
    create: scoped(needs.tokens.create, (actor, input) => createPersonalToken(ports, actor, input)),
    list: scoped(needs.tokens.list, (actor, owner, page) => listPersonalTokens(ports, actor, owner, page)),
    get: scoped(needs.tokens.get, (actor, owner, id) => getPersonalToken(ports, actor, owner, id)),
    revoke: scoped(needs.tokens.revoke, (actor, owner, id) => revokePersonalToken(ports, actor, owner, id)),
  },
  setup: { ensureFirstAdmin: (email, password, beforeCreate) => ensureFirstAdmin(ports, email, password, beforeCreate) },
  health: { ready: () => ports.health.ping() },
});
