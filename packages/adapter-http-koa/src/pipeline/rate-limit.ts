import type { RateLimitStatus, RateSubject } from '@support/application';
import type { UserId } from '@support/domain';
import type { Middleware } from 'koa';
import { isTokenEndpoint } from '../conventions/caching-headers.js';
import { arrivedOverTls } from '../conventions/transport-security.js';
import type { ResponseHeaders } from '../conventions/response-headers.js';
import { isDocsPath } from '../docs/renderer.js';
import { problem, type HttpProblem } from '../errors/http-problem.js';
import type { RequestState, Services } from '../state.js';
import { identifyCaller } from './caller.js';
import { isHealthPath } from './health.js';

// The rate limit at the HTTP edge: who a request counts against is decided here, in
// `whoIsCounted`, and only here; how many requests each subject may make in a window is
// the application's use case (application/src/rate-limit.ts).

/** What decides who a request counts against. */
export interface RateRequest {
  /** As received: before the .json suffix is dropped. */
  readonly path: string;
  /** False on the plain listener, or when a trusted proxy says the client came by http. */
  readonly overTls: boolean;
  /** The client address (the nearest trusted proxy's view behind TRUST_PROXY). */
  readonly ip: string;
}

export type Counted = { readonly kind: 'exempt' } | RateSubject;

/**
 * Who a request counts against. Health checks are for load balancers: exempt. Plain HTTP
 * (refused whatever the token), the documentation page and the token endpoints (which never
 * look at Authorization: a client without a token must reach them) count per
 * client IP without looking at a token. Everything else counts against the user a valid
 * token proves, else per client IP. `tokenUser` looks at the credentials (the user of a
 * valid token, else null); it is called only when a token can decide.
 */
export const whoIsCounted = async (request: RateRequest, tokenUser: () => Promise<UserId | null>): Promise<Counted> => {
  if (isHealthPath(request.path)) return { kind: 'exempt' };
  const perIp: RateSubject = { kind: 'ip', ip: request.ip };
  if (!request.overTls || isDocsPath(request.path) || isTokenEndpoint(request.path)) return perIp;
  const user = await tokenUser();
  return user === null ? perIp : { kind: 'user', userId: user };
};

// Every counted answer tells the caller where they stand: X-Rate-Limit-Limit (requests per
// window), -Remaining, and -Reset (seconds until the window ends, not a timestamp).
// Over the limit: 429 with Retry-After.

const setRateLimitHeaders = (to: ResponseHeaders, s: RateLimitStatus): void => {
  to.set('X-Rate-Limit-Limit', String(s.limit));
  to.set('X-Rate-Limit-Remaining', String(s.remaining));
  to.set('X-Rate-Limit-Reset', String(s.resetSeconds));
};

const rateLimited = (s: RateLimitStatus): HttpProblem =>
  problem(
    'rateLimited',
    `the limit of ${s.limit} requests per window is used up; it resets in ${s.resetSeconds} seconds`,
    {
      headers: { 'Retry-After': String(s.resetSeconds) },
    },
  );

/**
 * Counts the request against whoever `whoIsCounted` names (identifying the caller when the
 * token decides), then refuses it: 429 over the limit, else the caller's 401 for a bad
 * token. Counting comes before the 401 so that guessing tokens is rate limited too.
 */
export const rateLimit =
  (services: Services): Middleware<RequestState> =>
  async (ctx, next) => {
    const identified: { refusal: HttpProblem | null } = { refusal: null };
    const request: RateRequest = {
      path: ctx.path,
      overTls: arrivedOverTls(ctx.req, services.options.trustProxy),
      ip: ctx.ip,
    };
    const counted = await whoIsCounted(request, async () => {
      identified.refusal = await identifyCaller(ctx, services);
      return ctx.state.actor?.user.id ?? null;
    });
    if (counted.kind !== 'exempt') {
      const status = await services.app.rateLimit.consume(counted);
      setRateLimitHeaders(ctx.state.headers, status);
      if (!status.allowed) throw rateLimited(status);
    }
    if (identified.refusal !== null) throw identified.refusal;
    await next();
  };
