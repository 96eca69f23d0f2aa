import type { Application } from './application.js';
import { attachmentUseCases, type AttachmentsConfig } from './attachments/index.js';
import type { AuthConfig } from './auth/oauth.js';
import { authUseCases } from './auth/use-cases.js';
import { eventUseCases } from './events/index.js';
import type { EventsConfig } from './events/feed.js';
import { groupUseCases } from './groups/index.js';
import { healthUseCases } from './health.js';
import { idempotencyUseCases } from './idempotency/index.js';
import type { IdempotencyConfig } from './idempotency/use-case.js';
import { messageUseCases } from './messages/index.js';
import type { Ports } from './ports/index.js';
import { rateLimitUseCases, type RateLimitConfig } from './rate-limit.js';
import { setupUseCases } from './setup.js';
import { ticketFieldUseCases } from './ticket-fields/index.js';
import { ticketUseCases } from './tickets/index.js';
import { tokenUseCases } from './tokens/index.js';
import { userUseCases } from './users/index.js';
import type { DeliveryConfig } from './webhooks/deliver.js';
import { webhookUseCases } from './webhooks/index.js';

export interface ApplicationConfig {
  readonly auth: AuthConfig;
  readonly rateLimit: RateLimitConfig;
  readonly idempotency: IdempotencyConfig;
  readonly events: EventsConfig;
  readonly webhooks: DeliveryConfig;
  readonly attachments: AttachmentsConfig;
}

/**
 * The application: every feature's use cases, bound to the ports they run on (and each to the
 * scope it needs) by the feature's own `<feature>UseCases` factory. A use case is named
 * `<verb><Noun>` (listTickets, replaceUser, rotateWebhookSecret) where it is defined, and by
 * its verb (tickets.list, users.replace) on the Application.
 */
export const createApplication = (ports: Ports, config: ApplicationConfig): Application => ({
  auth: authUseCases(ports, config.auth),
  rateLimit: rateLimitUseCases(ports, config.rateLimit),
  idempotency: idempotencyUseCases(ports, config.idempotency),
  events: eventUseCases(ports, config.events),
  webhooks: webhookUseCases(ports, config.webhooks),
  tickets: ticketUseCases(ports),
  ticketFields: ticketFieldUseCases(ports),
  messages: messageUseCases(ports),
  attachments: attachmentUseCases(ports, config.attachments),
  users: userUseCases(ports),
  groups: groupUseCases(ports),
  tokens: tokenUseCases(ports),
  setup: setupUseCases(ports),
  health: healthUseCases(ports),
});
