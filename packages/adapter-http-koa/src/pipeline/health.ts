import type { Middleware } from 'koa';
import { problemReply, storeRetryAfterSeconds } from '../errors/error-reply.js';
import { problem } from '../errors/http-problem.js';
import type { RequestState, Services } from '../state.js';

// /healthz: the process answers. /readyz: the store answers too (else 503). Both are for
// load balancers and orchestrators: unauthenticated, unversioned, not rate limited
// (pipeline/rate-limit.ts exempts these paths).

const paths = ['/healthz', '/readyz'];
export const isHealthPath = (path: string): boolean => paths.includes(path);

export const health =
  ({ app }: Services): Middleware<RequestState> =>
  async (ctx, next) => {
    if (!isHealthPath(ctx.path)) {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.state.reply = problemReply(problem('methodNotAllowed', `${ctx.method} is not allowed here; allowed: GET, HEAD`, { headers: { Allow: 'GET, HEAD' } }));
      return;
    }
    if (ctx.path === '/healthz') {
      ctx.state.reply = { status: 200, body: { status: 'ok' }, noStore: true };
      return;
    }
    const ready = await app.health.ready().catch(() => false);
    ctx.state.reply = ready
      ? { status: 200, body: { status: 'ready' }, noStore: true }
      : { ...problemReply(problem('storeUnavailable', 'the data store is not reachable', { headers: { 'Retry-After': String(storeRetryAfterSeconds) } })), noStore: true };
  };
