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
import type { Ports } from './ports/index.js';
import { consumeRateLimit, type RateLimitConfig } from './rate-limit.js';
import { ensureFirstAdmin } from './setup.js';
import { getTicket, listTickets } from './tickets/read.js';
import { createTicketUseCase, deleteTicketUseCase, patchTicketUseCase, replaceTicketUseCase } from './tickets/write.js';
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
}

/** The application: every use case bound to the ports it runs on. */
export const createApplication = (ports: Ports, config: ApplicationConfig): Application => ({
  auth: authUseCases(ports, config.auth),
  rateLimit: { consume: (subject) => consumeRateLimit(ports, config.rateLimit, subject) },
  idempotency: {
    begin: (actor, clientIp, key, fingerprint) => beginIdempotent(ports, config.idempotency, idempotencyScope(actor, clientIp), key, fingerprint),
  },
  tickets: {
    list: (actor, params, alias) => listTickets(ports, actor, params, alias),
    get: (actor, id, params) => getTicket(ports, actor, id, params),
    create: (actor, body) => createTicketUseCase(ports, actor, body),
    replace: (actor, id, body, options) => replaceTicketUseCase(ports, actor, id, body, options),
    patch: (actor, id, body, options) => patchTicketUseCase(ports, actor, id, body, options),
    delete: (actor, id, options) => deleteTicketUseCase(ports, actor, id, options),
  },
  messages: {
    list: (actor, ticketId, params) => listMessages(ports, actor, ticketId, params),
    get: (actor, ticketId, number) => getMessage(ports, actor, ticketId, number),
    create: (actor, ticketId, body) => createMessageUseCase(ports, actor, ticketId, body),
    replace: (actor, ticketId, number, body, options) => replaceMessageUseCase(ports, actor, ticketId, number, body, options),
    patch: (actor, ticketId, number, body, options) => patchMessageUseCase(ports, actor, ticketId, number, body, options),
    delete: (actor, ticketId, number, options) => deleteMessageUseCase(ports, actor, ticketId, number, options),
  },
  users: {
    list: (actor, params) => listUsers(ports, actor, params),
    get: (actor, id) => getUser(ports, actor, id),
    create: (actor, body) => createUserUseCase(ports, actor, body),
    replace: (actor, id, body, options) => replaceUserUseCase(ports, actor, id, body, options),
    patch: (actor, id, body, options) => patchUserUseCase(ports, actor, id, body, options),
    delete: (actor, id, options) => deleteUserUseCase(ports, actor, id, options),
  },
  groups: {
    list: (actor, params) => listGroups(ports, actor, params),
    get: (actor, id) => getGroup(ports, actor, id),
    members: (actor, id, params) => groupMembers(ports, actor, id, params),
    create: (actor, body) => createGroupUseCase(ports, actor, body),
    replace: (actor, id, body, options) => replaceGroupUseCase(ports, actor, id, body, options),
    patch: (actor, id, body, options) => patchGroupUseCase(ports, actor, id, body, options),
    delete: (actor, id, options) => deleteGroupUseCase(ports, actor, id, options),
  },
  setup: { ensureFirstAdmin: (email, password) => ensureFirstAdmin(ports, email, password) },
  health: { ready: () => ports.health.ping() },
});
