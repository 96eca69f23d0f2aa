import type { Middleware } from 'koa';
import { idempotencyKeyHeader, isIdempotencyKey, replayReply, requestFingerprint, takesIdempotencyKey } from '../conventions/idempotency-key.js';
import { hasBody, requestBytes } from '../conventions/request-body.js';
import { problem } from '../errors/http-problem.js';
import type { AppContext, RequestState, Services } from '../state.js';

// Safe retries. After the caller is known and counted (a replay counts against the rate limit
// like any request) and the method override is applied, before any route runs: a request with
// a key claims it, runs, and `respond` hands the rendered answer back to be kept (or the
// claim released) before the answer leaves. Other POSTs and methods pass through untouched.

const fingerprintOf = async (ctx: AppContext): Promise<string> => {
  let body: Buffer = Buffer.alloc(0);
  if (hasBody(ctx)) {
    try {
      body = await requestBytes(ctx);
    } catch {
      // An unreadable body is the route's to refuse (the same problem, read once); the
      // refusal is kept for the key like any 4xx.
      body = Buffer.from('\u0000unreadable');
    }
  }
  return requestFingerprint(ctx.method, ctx.path, body);
};

export const idempotency =
  ({ app }: Services): Middleware<RequestState> =>
  async (ctx, next) => {
    const key = ctx.req.headers[idempotencyKeyHeader.toLowerCase()];
    if (key === undefined || !takesIdempotencyKey(ctx.method, ctx.path)) {
      await next();
      return;
    }
    if (typeof key !== 'string' || !isIdempotencyKey(key)) {
      throw problem('badIdempotencyKey', `${idempotencyKeyHeader} must be 1-255 printable ASCII characters (! to ~), sent once`);
    }
    const decision = await app.idempotency.begin(ctx.state.actor, ctx.ip, key, await fingerprintOf(ctx));
    switch (decision.kind) {
      case 'replay':
        ctx.state.reply = replayReply(decision.answer);
        return;
      case 'mismatch':
        throw problem(
          'idempotencyKeyReused',
          `this ${idempotencyKeyHeader} was used for another request (method, path or body differ); use a new key for a new request`,
        );
      case 'in_flight':
        throw problem('idempotencyInFlight', `a request with this ${idempotencyKeyHeader} is still running; retry after it has finished`, {
          headers: { 'Retry-After': '1' },
        });
      case 'run':
        ctx.state.idempotency = decision.finish;
        await next();
        return;
    }
  };
