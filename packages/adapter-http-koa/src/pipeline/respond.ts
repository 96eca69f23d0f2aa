import type { Middleware } from 'koa';
import { isTokenEndpoint } from '../conventions/caching-headers.js';
import { lenientPresentation } from '../conventions/presentation.js';
import { render } from '../conventions/render.js';
import { problemBody, problemReply, toProblem } from '../errors/error-reply.js';
import { problem } from '../errors/http-problem.js';
import type { Reply } from '../reply.js';
import type { AppContext, RequestState, Services } from '../state.js';
import type { Rendered } from '../conventions/rendered.js';
import { clientClosedRequest, clientWentAway } from './client-gone.js';
import { keepForKey } from './idempotency.js';
import { writeAnswer } from './write.js';

// The error boundary and the one place answers are written. Whatever happens further in
// (a route's reply, an HTTP problem, a store outage, a bug) ends here as a Reply and is
// rendered with every convention. A bug is logged with its stack; the client gets a
// plain 500 that names only the request id.

/** A request no route answered: unknown path (404), known path with another method (405). */
const unrouted = (ctx: AppContext): Reply => {
  // Koa 3 answers undefined for a header never set, whatever its type says.
  const allow = (ctx.response.get('Allow') as string | undefined) ?? '';
  if (ctx.method === 'OPTIONS' && allow !== '') return { status: 204, body: undefined, headers: { Allow: allow } };
  if (ctx.status === 405) {
    return problemReply(
      problem('methodNotAllowed', `${ctx.method} is not allowed here; allowed: ${allow}`, {
        headers: { Allow: allow },
      }),
    );
  }
  if (ctx.status === 501)
    return problemReply(problem('notImplemented', `${ctx.method} is not a method this API implements`));
  // The path as sent: ctx.path has lost its .json suffix (negotiate), and /v1/openapi.json.json
  // was "no resource at /v1/openapi.json", which is there.
  const sent = ctx.originalUrl.split('?', 1)[0] ?? ctx.path;
  return problemReply(problem('routeNotFound', `there is no resource at ${sent}; resources live under /v1`));
};

/**
 * Headers something set on Node's response directly (the router's Allow on a 405 or an
 * OPTIONS) join the answer's lines where they stand in time: after those set before them,
 * before render's. Those describing a body Koa was given (the router's empty OPTIONS body)
 * go: render decides the body.
 */
const bodyHeaders = new Set(['content-type', 'content-length', 'transfer-encoding']);

const adoptNodeHeaders = (ctx: AppContext): void => {
  const res = ctx.res;
  // Node has had OutgoingMessage#getRawHeaderNames (the names as set) since 15.13; @types/node
  // declares it on ClientRequest only.
  for (const name of (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
    const value = res.getHeader(name);
    res.removeHeader(name);
    if (value === undefined || bodyHeaders.has(name.toLowerCase())) continue;
    for (const v of Array.isArray(value) ? value : [String(value)]) ctx.state.headers.append(name, v);
  }
};

/**
 * Contract §8.2: an answer to a token narrower than its role (a personal token, a login asked
 * for with scope) says what the token holds and what the operation needs, on every answer.
 * The route is the one that answered (the router's, or the lane's, _matchedRoute).
 */
const scopeHeaders = (ctx: AppContext, services: Services): void => {
  const held = ctx.state.actor?.scopes;
  if (held === undefined) return;
  const route = (ctx as AppContext & { _matchedRoute?: string })._matchedRoute;
  ctx.state.headers.set('X-OAuth-Scopes', held.join(', '));
  ctx.state.headers.set(
    'X-Accepted-OAuth-Scopes',
    route === undefined ? '' : services.operations.acceptedScopes(ctx.method, route),
  );
};

const failed = Buffer.from(
  JSON.stringify(problemBody(problem('internal', 'the response could not be written; it has been logged'))),
);

/**
 * A request whose client went away before it arrived (pipeline/client-gone.ts): nothing to
 * answer and nothing to log as a fault; the access log says 499 (or the status of an answer
 * already sent, such as a 408 for a body too late).
 */
const abandon = (ctx: AppContext, services: Services): void => {
  ctx.respond = false;
  const res = ctx.res;
  if (!res.headersSent) res.statusCode = clientClosedRequest;
  services.options.logger.info('client closed request', { request_id: ctx.state.requestId });
  res.destroy();
};

export const respond =
  (services: Services): Middleware<RequestState> =>
  async (ctx, next) => {
    let reply: Reply;
    let presentation = ctx.state.presentation;
    try {
      await next();
      reply = ctx.state.reply ?? unrouted(ctx);
      presentation = ctx.state.presentation;
    } catch (e) {
      if (clientWentAway(ctx.req, e)) {
        abandon(ctx, services);
        await keepForKey(ctx, services, null);
        return;
      }
      const { problem: p, unexpected } = toProblem(e);
      if (unexpected) {
        services.options.logger.error('request failed', {
          request_id: ctx.state.requestId,
          error: e instanceof Error ? e.name : typeof e,
          detail: e instanceof Error ? e.message : String(e),
          stack: e instanceof Error ? e.stack : undefined,
        });
      }
      reply = problemReply(p);
      presentation = lenientPresentation(ctx.query);
    }
    // Every answer on a token endpoint's path is no-store (RFC 6749 §5.1): the routes' own, and
    // a refusal before them (a bad query parameter, an unknown X-Api-Version, a 405). The one place.
    if (isTokenEndpoint(ctx.path)) reply = { ...reply, noStore: true };
    scopeHeaders(ctx, services);
    let answer: Rendered;
    try {
      adoptNodeHeaders(ctx);
      answer = await render(ctx, services, reply, presentation);
      // An answer that shows a secret once (no-store) is kept only when its route names the secret
      // member (a new personal token's `token`), which is kept as null: the store keeps no secret in clear.
      const keepable = reply.noStore !== true || ctx.state.keyed?.secret !== undefined;
      await keepForKey(ctx, services, keepable ? reply : null);
    } catch (e) {
      services.options.logger.error('response failed', {
        request_id: ctx.state.requestId,
        detail: e instanceof Error ? e.message : String(e),
      });
      await keepForKey(ctx, services, null);
      ctx.state.headers.set('Content-Type', 'application/json; charset=utf-8');
      answer = { status: 500, body: failed };
    }
    writeAnswer(ctx, answer);
  };
