import type { RouterMiddleware } from '@koa/router';
import type { Declaration, Keyed, Method } from '../openapi/operation.js';
import type { OperationCatalog } from './catalog.js';
import type { AppRouter, RequestState } from '../state.js';

// Each route declares its operation where it is registered (recipes: docs/recipes.md): the
// operation id, the scopes it needs, its parameters, body and answers, and its prose. The
// document's paths (openapi/document.ts) and each answer's X-Accepted-OAuth-Scopes are read
// from the declarations, in the order of the router; nothing else lists the operations.

type Handler = RouterMiddleware<RequestState>;
type Register = (path: string, op: Declaration, ...handlers: [Handler, ...Handler[]]) => void;

/** The router's methods, each taking the operation it serves. */
export interface DeclaringRouter {
  readonly get: Register;
  readonly post: Register;
  readonly put: Register;
  readonly patch: Register;
  readonly delete: Register;
  /** The router itself, for what no operation documents (the refusals of a saved search: refusalRoute). */
  readonly router: AppRouter;
  /** A route the document spells otherwise (/v1/openapi.json, served as /v1/openapi). */
  readonly getAs: (path: string, documented: string, op: Declaration, handler: Handler) => void;
}

/**
 * The name of a router layer that only refuses: OPTIONS with its Allow, every other method 405.
 * It serves no operation, so the routes the router serves (router.ts, servedRoutes) leave it out.
 */
export const refusalRoute = 'refusal';

/** `gate`: the first handler of a keyed operation's route (routes/repeat-gate.ts: a repeat is answered there, after its checks). */
export const declaring = (
  router: AppRouter,
  catalog: OperationCatalog,
  gate: (keyed: Keyed) => Handler,
): DeclaringRouter => {
  const register =
    (method: Method): Register =>
    (path, op, ...handlers) => {
      catalog.add(method, path, op);
      if (op.keyed === undefined) router[method](path, ...handlers);
      else router[method](path, gate(op.keyed), ...handlers);
    };
  return {
    router,
    get: register('get'),
    post: register('post'),
    put: register('put'),
    patch: register('patch'),
    delete: register('delete'),
    getAs: (path, documented, op, handler) => {
      catalog.add('get', path, op, documented);
      router.get(path, handler);
    },
  };
};
