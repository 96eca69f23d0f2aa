import type { Middleware } from 'koa';
import { arrivedOverTls, tlsRequired } from '../conventions/transport-security.js';
import type { RequestState, Services } from '../state.js';
import { isHealthPath } from './health.js';
import { countRequest, ipSubject } from './caller.js';

/** Plain HTTP (the optional plain listener, or a proxy saying the client came by http): 403, never a redirect. */
export const requireTls =
  (services: Services): Middleware<RequestState> =>
  async (ctx, next) => {
    if (arrivedOverTls(ctx.req, services.options.trustProxy)) {
      await next();
      return;
    }
    // Counted like any other unauthenticated request; the token, if any, is not looked at.
    if (!isHealthPath(ctx.path)) await countRequest(ctx, services, ipSubject(ctx));
    throw tlsRequired(services.urls.origin);
  };
