import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { AppRouter, RequestState, RouteContext } from '../state.js';

/**
 * The short lane: a GET or HEAD the router would answer with one handler of its own is
 * recognised from the request line alone and run through the same pipeline stages and that
 * handler, on a Koa context made by Koa itself (`createContext`: the same `ctx.path`,
 * `ctx.query`, `ctx.ip`, proxy rules), without Koa's composer and the router's matching and
 * composer (why: docs/benchmarks.md, "The short lane"). Its routes are read from the router's
 * own layers (`laneRoutesOf`); `mountPipeline` (pipeline/mount.ts) gives both entries the same
 * stages.
 */

type Handler = (ctx: RouteContext) => unknown;

export interface LaneRoute {
  /** As the router spells it: /v1/tickets/:ticketId. */
  readonly path: string;
  readonly handler: Handler;
  readonly pattern: RegExp;
  readonly params: readonly string[];
}

export interface LaneMatch {
  readonly route: LaneRoute;
  readonly params: Record<string, string>;
}

/** Literal segments and `:name` parameters only: what the lane's pattern can spell exactly. */
const plainPath = /^(?:\/(?:[A-Za-z0-9_-]+|:[A-Za-z][A-Za-z0-9]*))+$/;

/**
 * The lane's pattern for a router path: every `:param` decimal digits only (nothing to
 * percent-decode, no format suffix, no trailing slash), the path ending the request target
 * or a query string following (no fragment reaches a server). A subset of what the router
 * matches there: `/v1/tickets/12/`, `/v1/tickets/012.json`, `/V1/...` go the long way.
 */
const laneRoute = (path: string, handler: Handler): LaneRoute => {
  const params: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      params.push(segment.slice(1));
      return '([0-9]{1,20})';
    })
    .join('/');
  return { path, handler, pattern: new RegExp(`^${source}(?:\\?|$)`), params };
};

/** The path with every parameter a decimal id, as a request would spell it. */
const instance = (path: string): string => path.replace(/:[A-Za-z][A-Za-z0-9]*/g, '1');

/** What the lane serves. */
export class LaneRoutes {
  constructor(readonly routes: readonly LaneRoute[]) {}

  /** The route and path parameters for a request line the lane serves; null for any other. */
  match(method: string | undefined, url: string): LaneMatch | null {
    if (method !== 'GET' && method !== 'HEAD') return null;
    for (const route of this.routes) {
      const m = route.pattern.exec(url);
      if (m === null) continue;
      const params: Record<string, string> = {};
      route.params.forEach((name, i) => {
        params[name] = m[i + 1] as string;
      });
      return { route, params };
    }
    return null;
  }
}

/**
 * The lane's routes, read from the router's layers: every GET layer with a plain path and
 * one handler that takes no `next` (it answers; it never hands on to another layer), where
 * the lane's pattern and the router agree that no other layer matches. `/v1/users/me`, which
 * the router also matches as `/v1/users/:userId`, and `/v1/ticket/:ticketId` (two handlers)
 * stay the long way.
 */
export const laneRoutesOf = (router: AppRouter): LaneRoutes => {
  const gets = router.stack.filter((layer) => layer.methods.includes('GET'));
  const routes: LaneRoute[] = [];
  for (const layer of gets) {
    const { path, stack } = layer;
    if (typeof path !== 'string' || !plainPath.test(path)) continue;
    const handler = stack[0] as Handler | undefined;
    if (handler === undefined || stack.length !== 1 || handler.length > 1) continue;
    const route = laneRoute(path, handler);
    const matched = router.match(instance(path), 'GET').pathAndMethod;
    const alone = matched.length === 1 && matched[0] === layer;
    const shadows = gets.some(
      (other) => other !== layer && route.pattern.test(typeof other.path === 'string' ? instance(other.path) : ''),
    );
    if (alone && !shadows) routes.push(route);
  }
  return new LaneRoutes(routes);
};

/** koa-compose's contract: each stage gets `next`, a sync throw becomes a rejection. */
const run = (ctx: RouteContext, stages: readonly Middleware<RequestState>[], handler: Handler): Promise<unknown> => {
  const dispatch = (i: number): Promise<unknown> => {
    try {
      if (i === stages.length) return Promise.resolve(handler(ctx));
      return Promise.resolve((stages[i] as Middleware<RequestState>)(ctx, () => dispatch(i + 1)));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  };
  return dispatch(0);
};

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

const answering = Symbol('the lane request this connection is answering');
type LaneSocket = Socket & { [answering]?: RouteContext };

/**
 * As Koa's on-finished hook does on the long way: a socket error (a client resetting its
 * connection) before the answer has been handed to the system goes to ctx.onerror, which logs it.
 * One listener per connection, not per request (on-finished's per-request listeners cost the
 * lane its margin: docs/benchmarks.md, "The short lane").
 */
const watchSocket = (ctx: RouteContext, socket: LaneSocket | null): void => {
  if (socket === null) return;
  if (!(answering in socket)) {
    socket.on('error', (e: Error) => {
      const current = socket[answering];
      if (current !== undefined && !current.res.writableFinished) current.onerror(e);
    });
  }
  socket[answering] = ctx;
};

/**
 * A request listener that serves the lane's routes and returns null for any other request
 * (the caller hands it to Koa).
 */
export const shortLane = (
  koa: Koa<RequestState>,
  stages: readonly Middleware<RequestState>[],
  lane: LaneRoutes,
): ((req: IncomingMessage, res: ServerResponse) => Promise<unknown> | null) => {
  return (req, res) => {
    const found = lane.match(req.method, req.url ?? '');
    if (found === null) return null;
    const ctx = koa.createContext(req, res) as RouteContext;
    ctx.params = found.params;
    // As the router sets it: the path of the route that answers (respond reads it for X-Accepted-OAuth-Scopes).
    (ctx as RouteContext & { _matchedRoute?: string })._matchedRoute = found.route.path;
    // As Koa starts every request: 404 until something answers, a socket error to ctx.onerror.
    res.statusCode = 404;
    watchSocket(ctx, req.socket);
    // What escapes `respond` (it answers everything else) goes where Koa sends it: ctx.onerror.
    return run(ctx, stages, found.route.handler).catch((e: unknown) => {
      ctx.onerror(asError(e));
    });
  };
};
