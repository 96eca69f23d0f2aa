import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { type DeliveryConfig } from './deliver.js';
/** The webhook use cases. */
export declare const webhookUseCases: (ports: Ports, config: DeliveryConfig) => Application["webhooks"];
//# sourceMappingURL=index.d.ts.map