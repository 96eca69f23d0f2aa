import type { Application } from '../application.js';
import type { Ports } from '../ports/index.js';
import { operationNeeds as needs, scoped } from '../scopes.js';
import { forgetOldEvents, listEvents, type EventsConfig } from './feed.js';

/** The change feed's use cases. */
export const eventUseCases = (ports: Ports, config: EventsConfig): Application['events'] => ({
  list: scoped(needs.events.list, (actor, query, shutdown) => listEvents(ports, actor, query, shutdown)),
  forgetOld: () => forgetOldEvents(ports, config),
});
