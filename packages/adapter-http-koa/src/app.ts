import type { Application } from '@support/application';
import Koa from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { responseCache } from './cache/response-cache.js';
import { resolveOptions, type HttpOptions } from './options.js';
import { accessLog } from './pipeline/access-log.js';
import { docs } from './pipeline/docs.js';
import { health } from './pipeline/health.js';
import { idempotency } from './pipeline/idempotency.js';
import { mountPipeline, type MountedPipeline } from './pipeline/mount.js';
import { negotiate } from './pipeline/negotiate.js';
import { rateLimit } from './pipeline/rate-limit.js';
import { startRequest } from './pipeline/request-id.js';
import { respond } from './pipeline/respond.js';
import { requireTls } from './pipeline/transport.js';
import { urlsFor } from './representations/urls.js';
import { operationCatalog } from './routes/catalog.js';
import { createRouter } from './routes/router.js';
import type { RequestState, Services } from './state.js';

/** The HTTP adapter as the server mounts it: a request listener for node:http(s). */
export interface HttpApp {
  callback(): (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;
}

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
 *
 * `mountPipeline` mounts it for both entries: Koa's, and the short lane's (pipeline/lane.ts).
 */
export const httpPipeline = (app: Application, httpOptions: HttpOptions): MountedPipeline => {
  const options = resolveOptions(httpOptions);
  const services: Services = {
    app,
    urls: urlsFor(options.publicUrl),
    options,
    cache: responseCache(options.responseCacheBytes),
    operations: operationCatalog(),
  };
  // Behind a trusted proxy, the client address is the one the nearest proxy saw
  // (the last X-Forwarded-For entry): earlier entries are whatever the client wrote.
  const koa = new Koa<RequestState>({ proxy: options.trustProxy, maxIpsCount: 1 });
  const router = createRouter(services);
  const stages = [
    startRequest(services),
    accessLog(services),
    respond(services),
    rateLimit(services),
    requireTls(services),
    health(services),
    docs(services),
    negotiate(services),
    idempotency(services),
  ];
  return mountPipeline(koa, stages, router, options);
};

export const createHttpApp = (app: Application, httpOptions: HttpOptions): HttpApp => {
  const pipeline = httpPipeline(app, httpOptions);
  return { callback: () => pipeline.listener() };
};
