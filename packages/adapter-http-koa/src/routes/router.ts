import { Router } from '@koa/router';
import type { AppRouter, RequestState, Services } from '../state.js';
import { deprecationRoutes } from './deprecations.js';
import { groupRoutes } from './groups.js';
import { messageRoutes } from './messages.js';
import { oauthRoutes } from './oauth.js';
import { ticketRoutes } from './tickets.js';
import { userRoutes } from './users.js';

/** Every route of the API. Routes only translate: HTTP in, a use case, a Reply out. */
export const createRouter = (services: Services): AppRouter => {
  const router = new Router<RequestState>();
  oauthRoutes(router, services);
  ticketRoutes(router, services);
  messageRoutes(router, services);
  userRoutes(router, services);
  groupRoutes(router, services);
  deprecationRoutes(router, services);
  return router;
};
