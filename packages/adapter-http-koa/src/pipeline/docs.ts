import type { Middleware } from 'koa';
import { docsAssetsPath, docsPath, docsRenderer, docsSecurityHeaders, isDocsPath } from '../docs/renderer.js';
import { problemReply } from '../errors/error-reply.js';
import { problem } from '../errors/http-problem.js';
import type { Reply } from '../reply.js';
import type { Operation } from '../openapi/operation.js';
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

/** The operations of the documentation page, which the pipeline answers before the router. */
export const docsOperations = (origin: string): Operation[] => [
  {
    path: '/docs',
    method: 'get',
    id: 'getDocs',
    tag: 'Documentation',
    summary: 'Human-readable documentation',
    description:
      'An HTML page rendered from this document (Swagger UI, served by this service; nothing is loaded from another origin). Public and unversioned: no token is looked at, and pretty, envelope and callback do not apply. Rate limited per client IP. /docs/ works too.',
    access: 'docs',
    success: { status: 200, shape: 'html', description: 'The page.' },
    errors: [],
    curl: `curl '${origin}/docs'`,
  },
  {
    path: '/docs/assets/{file}',
    method: 'get',
    id: 'getDocsAsset',
    tag: 'Documentation',
    summary: 'A file of the documentation page',
    description: 'The stylesheet, scripts and icons the page uses (a fixed list; anything else is 404).',
    access: 'docs',
    params: ['DocsFile'],
    success: { status: 200, shape: 'asset', description: 'The file.' },
    errors: ['NotFound'],
    curl: `curl '${origin}/docs/assets/swagger-ui.css'`,
  },
];
