import type { Middleware } from 'koa';
import { docsAssetsPath, docsPath, docsRenderer, docsSecurityHeaders } from '../docs/renderer.js';
import { problemReply } from '../errors/error-reply.js';
import { problem } from '../errors/http-problem.js';
import type { Reply } from '../reply.js';
import type { RequestState, Services } from '../state.js';
import { countRequest, ipSubject } from './caller.js';

// GET /docs (and /docs/assets/...): the public documentation page. Unversioned like
// /healthz, and answered before the caller is identified and the request negotiated: no
// token is needed or looked at (an Authorization header meant for the API does not make
// the page fail), and X-Api-Version, envelope and callback do not apply to HTML. It is
// rate limited per client IP like any unauthenticated request.

const isDocsPath = (path: string): boolean => path === docsPath || path.startsWith(`${docsPath}/`);

export const docs = (services: Services): Middleware<RequestState> => {
  const renderer = docsRenderer(services.options.publicUrl);
  const pageHeaders = docsSecurityHeaders(new URL(services.options.publicUrl).origin);
  return async (ctx, next) => {
    if (!isDocsPath(ctx.path)) {
      await next();
      return;
    }
    await countRequest(ctx, services, ipSubject(ctx));
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.state.reply = problemReply(problem('methodNotAllowed', `${ctx.method} is not allowed here; allowed: GET, HEAD`, { headers: { Allow: 'GET, HEAD' } }));
      return;
    }
    let reply: Reply | null = null;
    if (ctx.path === docsPath || ctx.path === `${docsPath}/`) {
      reply = { status: 200, body: undefined, raw: renderer.page, headers: pageHeaders };
    } else if (ctx.path.startsWith(docsAssetsPath)) {
      const asset = await renderer.asset(ctx.path.slice(docsAssetsPath.length));
      if (asset !== null) reply = { status: 200, body: undefined, raw: asset, headers: { 'Cross-Origin-Resource-Policy': 'same-origin' } };
    }
    ctx.state.reply = reply ?? problemReply(problem('routeNotFound', `there is no documentation file at ${ctx.path}; the documentation is at ${docsPath}`));
  };
};
