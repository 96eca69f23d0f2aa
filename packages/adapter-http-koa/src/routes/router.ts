import { Router } from '@koa/router';
import { METHODS } from 'node:http';
import { laneRoutesOf, type LaneRoutes } from '../pipeline/lane.js';
import { responseCache } from '../cache/response-cache.js';
import { resolveOptions, type HttpOptions } from '../options.js';
import { urlsFor } from '../representations/urls.js';
import type { AppRouter, RequestState, Services } from '../state.js';
import { operationCatalog } from './catalog.js';
import { declaring, refusalRoute } from './declare.js';
import { repeatGate } from './repeat-gate.js';
import { deprecationRoutes } from './deprecations.js';
import { eventRoutes } from './events.js';
import { groupRoutes } from './groups.js';
import { messageRoutes } from './messages.js';
import { attachmentRoutes } from './attachments.js';
import { oauthRoutes } from './oauth.js';
import { openApiRoutes } from './openapi.js';
import { ticketFieldRoutes } from './ticket-fields.js';
import { ticketRoutes } from './tickets.js';
import { tokenRoutes } from './tokens.js';
import { userRoutes } from './users.js';
import { webhookRoutes } from './webhooks.js';

/** Every route of the API. Routes only translate: HTTP in, a use case, a Reply out. */
export const createRouter = (services: Services): AppRouter => {
  // Case-sensitive (RFC 3986 §6.2.2.1), as every rule the pipeline keys on a path is
  // (Idempotency-Key under /v1/, the token endpoints): with @koa/router's default,
  // /V1/TICKETS reached the route while those rules looked the other way.
  // Every method Node parses (TRACE, QUERY, PROPFIND...) is one the router knows, so that a
  // known URL answers any method it does not offer 405 with Allow (RFC 9110 §15.5.6;
  // Schemathesis' unsupported_method check); CONNECT is answered before routing (501).
  const router = new Router<RequestState>({ sensitive: true, methods: METHODS.filter((m) => m !== 'CONNECT') });
  // Each route declares its operation as it is registered: the document lists them in this order.
  const api = declaring(router, services.operations, (keyed) => repeatGate(services, keyed));
  oauthRoutes(api, services);
  ticketRoutes(api, services);
  ticketFieldRoutes(api, services);
  messageRoutes(api, services);
  attachmentRoutes(api, services);
  tokenRoutes(api, services);
  userRoutes(api, services);
  groupRoutes(api, services);
  eventRoutes(api, services);
  webhookRoutes(api, services);
  deprecationRoutes(api, services);
  openApiRoutes(api, services);
  return router;
};

/** A route the router serves: its method and its path as the router spells it (/v1/tickets/:ticketId). */
export interface ServedRoute {
  readonly method: string;
  readonly path: string;
}

/** The services of a router with no application behind it, for reading what it serves: its handlers never run. */
export const servicesWithoutApp = (
  o: Pick<HttpOptions, 'versions' | 'deprecations'> & { readonly publicUrl?: string } = {},
): Services => {
  const options = resolveOptions({
    ...o,
    publicUrl: o.publicUrl ?? 'https://localhost',
    trustProxy: false,
    logger: { info: () => undefined, error: () => undefined },
  });
  return {
    app: undefined as never,
    urls: urlsFor(options.publicUrl),
    options,
    cache: responseCache(0),
    operations: operationCatalog(),
  };
};

/** The router built with no application behind it, for reading what it serves: its handlers never run. */
export const routerWithoutApp = (): AppRouter => createRouter(servicesWithoutApp());

/**
 * Every method and path the router serves (HEAD included where GET is). The OpenAPI tests
 * compare this with the document.
 */
export const servedRoutes = (): readonly ServedRoute[] =>
  routerWithoutApp()
    .stack.filter((layer) => layer.name !== refusalRoute)
    .flatMap((layer) => layer.methods.map((method) => ({ method, path: String(layer.path) })));

/** The routes the short lane serves (pipeline/lane.ts), read from the router's layers. The differential test covers each. */
export const shortLaneRoutes = (): LaneRoutes => laneRoutesOf(routerWithoutApp());
