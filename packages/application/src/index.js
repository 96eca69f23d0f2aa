export * from './ports/index.js';
export * from './auth/oauth.js';
export * from './create-application.js';
export { isKeptStatus } from './idempotency/use-case.js';
export { eventsQueryBounds } from './events/feed.js';
export { withDeadline } from './deadline.js';
//# sourceMappingURL=index.js.map