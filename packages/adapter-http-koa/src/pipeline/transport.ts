import type { Middleware } from 'koa';
import { arrivedOverTls, tlsRequired } from '../conventions/transport-security.js';
import type { RequestState, Services } from '../state.js';

// Stages that only pass a request on return next() rather than await it: one async frame
// less per request (the pipeline is ten stages deep).

/**
 * Plain HTTP (the optional plain listener, or a proxy saying the client came by http): 403,
 * never a redirect. The rate limit has already counted it per client IP, token unread.
 */
export const requireTls =
  (services: Services): Middleware<RequestState> =>
  (ctx, next) => {
    if (!arrivedOverTls(ctx.req, services.options.trustProxy)) throw tlsRequired(services.urls.origin);
    return next();
  };
