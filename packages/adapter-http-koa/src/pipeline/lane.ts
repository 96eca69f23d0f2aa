import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { RequestState, RouteContext } from '../state.js';

/**
 * The short lane: the most read routes (the ticket list, a ticket, its messages, a user, a
 * group, the change feed), recognised from the request line alone, run through the same pipeline stages as
 * every request and the same route handler, on a Koa context made by
 * Koa itself (`createContext`: the same `ctx.path`, `ctx.query`, `ctx.ip`, proxy rules), without
 * what Koa and the router add around them: Koa's composer, its on-finished hook (the answer is
 * written by `respond` in one call; an error escaping it goes to the same `ctx.onerror`), and the
 * router's matching and its own composer. What it takes is decided before anything is read:
 * GET or HEAD on a path the router serves with the same handler, every `:param` a decimal id
 * (a subset of what the router matches there; `/v1/tickets/12/`, `/v1/tickets/012.json`,
 * `/V1/...` and everything else go the long way). Why: Koa's composer, its hook and the
 * router are a good part of a cached answer's CPU time (docs/benchmarks.md, "The short lane").
 *
 * A route is registered on both with `laneGet` (routes/support.ts), so its path and handler
 * are written once; a test checks that the router matches every lane path to the same handler.
 */

type Handler = (ctx: RouteContext) => unknown;

export interface LaneRoute {
  /** As the router spells it: /v1/tickets/:ticketId. */
  readonly path: string;
  readonly handler: Handler;
  readonly pattern: RegExp;
  readonly params: readonly string[];
}

/** What the lane serves, filled while the router is built. */
export class LaneRoutes {
  readonly routes: LaneRoute[] = [];

  add(path: string, handler: Handler): void {
    const params: string[] = [];
    const source = path
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        params.push(segment.slice(1));
        // Decimal digits only: nothing to percent-decode, no format suffix, no trailing slash.
        return '([0-9]{1,20})';
      })
      .join('/');
    // The path ends the request target or a query string follows (no fragment reaches a server).
    this.routes.push({ path, handler, pattern: new RegExp(`^${source}(?:\\?|$)`), params });
  }

  /** The route and path parameters for a request line the lane serves; null for any other. */
  match(method: string | undefined, url: string): { readonly route: LaneRoute; readonly params: Record<string, string> } | null {
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
    // As Koa starts every request: 404 until something answers.
    res.statusCode = 404;
    // What escapes `respond` (it answers everything else) goes where Koa sends it: ctx.onerror.
    // Koa's on-finished hook is not attached: a socket error while the answer is written (a
    // client resetting its connection) is left to Node, which closes the socket, unlogged.
    return run(ctx, stages, found.route.handler).catch((e: unknown) => {
      ctx.onerror(e instanceof Error ? e : new Error(String(e)));
    });
  };
};
