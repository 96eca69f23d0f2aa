import type { Middleware } from 'koa';
import { docsAssetsPath, docsPath, docsRenderer, docsSecurityHeaders, isDocsPath } from '../docs/renderer.js';
import { problemReply } from '../errors/error-reply.js';
import { problem } from '../errors/http-problem.js';
import type { Reply } from '../reply.js';
import type { AppContext, RequestState, Services } from '../state.js';

// GET /docs (and /docs/assets/...): the public documentation page. Unversioned like
// /healthz, and answered before the request is negotiated: X-Api-Version, envelope and
// callback do not apply to HTML. No token is needed or looked at: the rate limit counts
// the page per client IP without reading one (pipeline/rate-limit.ts), so an
// Authorization header meant for the API does not make the page fail.

export const docs = (services: Services): Middleware<RequestState> => {
  const renderer = docsRenderer(services.options.publicUrl);
  const pageHeaders = docsSecurityHeaders(new URL(services.options.publicUrl).origin);
  const answer = async (ctx: AppContext): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.state.reply = problemReply(
        problem('methodNotAllowed', `${ctx.method} is not allowed here; allowed: GET, HEAD`, {
          headers: { Allow: 'GET, HEAD' },
        }),
      );
      return;
    }
    let reply: Reply | null = null;
    if (ctx.path === docsPath || ctx.path === `${docsPath}/`) {
      reply = { status: 200, body: undefined, raw: renderer.page, headers: pageHeaders };
    } else if (ctx.path.startsWith(docsAssetsPath)) {
      const asset = await renderer.asset(ctx.path.slice(docsAssetsPath.length));
      if (asset !== null)
        reply = {
          status: 200,
          body: undefined,
          raw: asset,
          headers: { 'Cross-Origin-Resource-Policy': 'same-origin' },
        };
    }
    ctx.state.reply =
      reply ??
      problemReply(
        problem('routeNotFound', `there is no documentation file at ${ctx.path}; the documentation is at ${docsPath}`),
      );
  };
  // Not async: every other request passes through without an async frame of its own.
  return (ctx, next) => (isDocsPath(ctx.path) ? answer(ctx) : next());
};
