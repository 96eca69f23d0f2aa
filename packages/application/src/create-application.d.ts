import type { Application } from './application.js';
import type { AuthConfig } from './auth/oauth.js';
import { type IdempotencyConfig } from './idempotency/use-case.js';
import { type EventsConfig } from './events/feed.js';
import type { Ports } from './ports/index.js';
import { type RateLimitConfig } from './rate-limit.js';
import type { DeliveryConfig } from './webhooks/deliver.js';
export interface ApplicationConfig {
    readonly auth: AuthConfig;
    readonly rateLimit: RateLimitConfig;
    readonly idempotency: IdempotencyConfig;
    readonly events: EventsConfig;
    readonly webhooks: DeliveryConfig;
}
/** The application: every use case bound to the ports it runs on. */
export declare const createApplication: (ports: Ports, config: ApplicationConfig) => Application;
//# sourceMappingURL=create-application.d.ts.map