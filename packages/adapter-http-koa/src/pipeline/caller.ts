import type { RateSubject } from '@support/application';
import * as E from 'fp-ts/lib/Either.js';
import type { Middleware } from 'koa';
import { credentialsOf } from '../conventions/credentials.js';
import { rateLimited, rateLimitHeaders } from '../conventions/rate-limit.js';
import { bearerChallenge, domainProblem, problem, type HttpProblem } from '../errors/http-problem.js';
import type { AppContext, RequestState, Services } from '../state.js';

// Who is calling, and whether they may call now. A valid token makes the request count
// against its user (all their tokens together); anything else counts against the client
// IP. The count happens before a bad token is refused, so guessing tokens is rate limited
// too. The token endpoints never look at Authorization: they always count per IP.

const tokenEndpoint = /^\/v1\/oauth\/(token|revoke)(\.json)?\/?$/;

/** Counts one request and sets the X-Rate-Limit-* headers; 429 when over the limit. */
export const countRequest = async (ctx: AppContext, { app }: Services, subject: RateSubject): Promise<void> => {
  const status = await app.rateLimit.consume(subject);
  ctx.set(rateLimitHeaders(status));
  if (!status.allowed) throw rateLimited(status);
};

export const ipSubject = (ctx: AppContext): RateSubject => ({ kind: 'ip', ip: ctx.ip });

export const identifyCaller =
  (services: Services): Middleware<RequestState> =>
  async (ctx, next) => {
    let refusal: HttpProblem | null = null;
    if (!tokenEndpoint.test(ctx.path)) {
      const c = credentialsOf(ctx.get('Authorization'), ctx.query.access_token);
      switch (c.kind) {
        case 'none':
          break;
        case 'token': {
          const r = await services.app.auth.authenticate(c.token);
          if (E.isRight(r)) ctx.state.actor = r.right;
          else refusal = domainProblem(r.left);
          break;
        }
        case 'unusable':
          refusal = problem('tokenInvalid', `${c.reason}; send "Authorization: Bearer <token>"`, {
            headers: { 'WWW-Authenticate': bearerChallenge('invalid_token', c.reason) },
          });
          break;
        case 'ambiguous':
          refusal = problem('tokenSentTwice', 'send the access token one way only: Authorization header or access_token parameter, once', {
            headers: { 'WWW-Authenticate': bearerChallenge('invalid_request', 'the token was sent more than one way') },
          });
          break;
      }
    }
    const actor = ctx.state.actor;
    await countRequest(ctx, services, actor === null ? ipSubject(ctx) : { kind: 'user', userId: actor.user.id });
    if (refusal !== null) throw refusal;
    await next();
  };
