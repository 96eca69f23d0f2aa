import * as E from 'fp-ts/lib/Either.js';
import { credentialsOf } from '../conventions/credentials.js';
import { requestHeader } from '../conventions/request-header.js';
import { bearerChallenge, domainProblem, problem, type HttpProblem } from '../errors/http-problem.js';
import type { AppContext, Services } from '../state.js';

/**
 * Who is calling: a valid token sets `ctx.state.actor`; anything wrong with the credentials
 * is answered as the refusal to throw. It is not thrown here, because the request is
 * counted first (pipeline/rate-limit.ts), so guessing tokens is rate limited too.
 */
export const identifyCaller = async (ctx: AppContext, { app }: Services): Promise<HttpProblem | null> => {
  // The query is parsed only when there is one: a token in the URL is the rare way to send it.
  const c = credentialsOf(
    requestHeader(ctx, 'authorization'),
    ctx.querystring === '' ? undefined : ctx.query.access_token,
  );
  switch (c.kind) {
    case 'none':
      return null;
    case 'token': {
      const r = await app.auth.authenticate(c.token);
      if (E.isLeft(r)) return domainProblem(r.left);
      ctx.state.actor = r.right;
      return null;
    }
    case 'unusable':
      return problem('tokenInvalid', `${c.reason}; send "Authorization: Bearer <token>"`, {
        headers: { 'WWW-Authenticate': bearerChallenge('invalid_token', c.reason) },
      });
    case 'ambiguous':
      return problem(
        'tokenSentTwice',
        'send the access token one way only: Authorization header or access_token parameter, once',
        {
          headers: { 'WWW-Authenticate': bearerChallenge('invalid_request', 'the token was sent more than one way') },
        },
      );
  }
};
