import type { Middleware } from 'koa';
import { problemReply, storeRetryAfterSeconds } from '../errors/error-reply.js';
import { problem } from '../errors/http-problem.js';
import { ref } from '../openapi/json.js';
import type { Operation } from '../openapi/operation.js';
import type { AppContext, RequestState, Services } from '../state.js';

// /healthz: the process answers. /readyz: every start-up step is done (options.startup; else
// 503 50302 naming the steps left) and the store answers (else 503 50301); a ready answer
// lists what an operator should know (options.warnings: the heap near its limit). Both are for
// load balancers and orchestrators: unauthenticated, unversioned, not rate limited
// (pipeline/rate-limit.ts exempts these paths).

const paths = ['/healthz', '/readyz'];
export const isHealthPath = (path: string): boolean => paths.includes(path);

const answerWith =
  ({ app, options }: Services) =>
  async (ctx: AppContext): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.state.reply = problemReply(
        problem('methodNotAllowed', `${ctx.method} is not allowed here; allowed: GET, HEAD`, {
          headers: { Allow: 'GET, HEAD' },
        }),
      );
      return;
    }
    if (ctx.path === '/healthz') {
      ctx.state.reply = { status: 200, body: { status: 'ok' }, noStore: true };
      return;
    }
    const pending = options.startup.pending();
    if (pending.length > 0) {
      const p = problem('starting', `the service is starting: waiting for ${pending.join(', ')}`, {
        headers: { 'Retry-After': '1' },
      });
      ctx.state.reply = { ...problemReply(p), noStore: true };
      return;
    }
    const ready = await app.health.ready().catch(() => false);
    const warnings = ready ? options.warnings() : [];
    ctx.state.reply = ready
      ? {
          status: 200,
          body: warnings.length === 0 ? { status: 'ready' } : { status: 'ready', warnings },
          noStore: true,
        }
      : {
          ...problemReply(
            problem('storeUnavailable', 'the data store is not reachable', {
              headers: { 'Retry-After': String(storeRetryAfterSeconds) },
            }),
          ),
          noStore: true,
        };
  };

export const health = (services: Services): Middleware<RequestState> => {
  const answer = answerWith(services);
  // Not async: every other request passes through without an async frame of its own.
  return (ctx, next) => (isHealthPath(ctx.path) ? answer(ctx) : next());
};

/** The operations of /healthz and /readyz, which the pipeline answers before the router. */
export const healthOperations = (origin: string): Operation[] => [
  {
    path: '/healthz',
    method: 'get',
    id: 'healthz',
    tag: 'Health',
    summary: 'Liveness',
    description:
      'The process answers. Unauthenticated, unversioned, not rate limited (no X-Rate-Limit-* headers). HEAD works too; other methods: 405.',
    access: 'health',
    success: { status: 200, shape: 'health', description: 'Alive.', schema: ref('Health'), example: { status: 'ok' } },
    errors: [],
    curl: `curl '${origin}/healthz'`,
  },
  {
    path: '/readyz',
    method: 'get',
    id: 'readyz',
    tag: 'Health',
    summary: 'Readiness',
    description:
      'Every start-up step is done (the store prepared, the first admin created; else 503 with 50302 naming the steps left) and the store answers (else 503 with 50301). Poll it before sending the first request: /healthz answers earlier. Unauthenticated, unversioned, not rate limited.',
    access: 'health',
    success: {
      status: 200,
      shape: 'health',
      description: 'Ready.',
      schema: ref('Health'),
      example: { status: 'ready' },
    },
    errors: ['ServiceUnavailable'],
    curl: `curl '${origin}/readyz'`,
  },
];
