import type { Application } from './application.js';
import type { Ports } from './ports/index.js';

/** The health use cases: whether the store answers. */
export const healthUseCases = (ports: Ports): Application['health'] => ({ ready: () => ports.health.ping() });
