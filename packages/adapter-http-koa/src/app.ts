import type { Application } from '@support/application';
import Koa from 'koa';
import { resolveOptions, type HttpOptions } from './options.js';
import { accessLog } from './pipeline/access-log.js';
import { docs } from './pipeline/docs.js';
import { health } from './pipeline/health.js';
import { idempotency } from './pipeline/idempotency.js';
import { negotiate } from './pipeline/negotiate.js';
import { rateLimit } from './pipeline/rate-limit.js';
import { startRequest } from './pipeline/request-id.js';
import { respond } from './pipeline/respond.js';
import { requireTls } from './pipeline/transport.js';
import { urlsFor } from './representations/urls.js';
import { createRouter } from './routes/router.js';
import type { RequestState, Services } from './state.js';

/**
 * The HTTP face of the application. It owns translation only: every rule lives in the
 * use cases. The pipeline, outermost first:
 *
 *   startRequest   request id, per-request state
 *   accessLog      one log line per request, secrets masked
 *   respond        error boundary; renders every answer (envelope, ETag/304, pretty, gzip)
 *   rateLimit      who is counted (health exempt; plain HTTP, docs, token endpoints per IP;
 *                  else a valid token's user, else per IP), X-Rate-Limit-*, 429; then 401
 *   requireTls     plain HTTP -> 403
 *   health         /healthz, /readyz (no auth)
 *   docs           /docs and its assets (no auth, HTML from /v1/openapi.json)
 *   negotiate      X-Api-Version, pretty/envelope/callback, X-HTTP-Method-Override, .json/.xml
 *   idempotency    Idempotency-Key on POST: claim and run, replay a kept answer, 409/422
 *   router         the routes; allowedMethods gives 405 + Allow
 */
export const createHttpApp = (app: Application, httpOptions: HttpOptions): Koa<RequestState> => {
  const options = resolveOptions(httpOptions);
  const services: Services = { app, urls: urlsFor(options.publicUrl), options };
  // Behind a trusted proxy, the client address is the one the nearest proxy saw
  // (the last X-Forwarded-For entry): earlier entries are whatever the client wrote.
  const koa = new Koa<RequestState>({ proxy: options.trustProxy, maxIpsCount: 1 });
  const router = createRouter(services);
  koa.use(startRequest(services));
  koa.use(accessLog(services));
  koa.use(respond(services));
  koa.use(rateLimit(services));
  koa.use(requireTls(services));
  koa.use(health(services));
  koa.use(docs(services));
  koa.use(negotiate(services));
  koa.use(idempotency(services));
  koa.use(router.routes());
  koa.use(router.allowedMethods());
  // Errors are answered by `respond`; this only catches what escapes it (a broken socket).
  koa.on('error', (e: unknown) => {
    options.logger.error('unhandled', { detail: e instanceof Error ? e.message : String(e) });
  });
  return koa;
};
