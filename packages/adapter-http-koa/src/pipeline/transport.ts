import type { Middleware } from 'koa';
import { arrivedOverTls, tlsRequired } from '../conventions/transport-security.js';
import type { RequestState, Services } from '../state.js';

/**
 * Plain HTTP (the optional plain listener, or a proxy saying the client came by http): 403,
 * never a redirect. The rate limit has already counted it per client IP, token unread.
 */
export const requireTls =
  (services: Services): Middleware<RequestState> =>
  async (ctx, next) => {
    if (!arrivedOverTls(ctx.req, services.options.trustProxy)) throw tlsRequired(services.urls.origin);
    await next();
  };
