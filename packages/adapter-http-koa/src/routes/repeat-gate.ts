import type { RouterMiddleware } from '@koa/router';
import type { StoredAnswer } from '@support/application';
import type { Keyed } from '../openapi/operation.js';
import { replayReply, withoutSecret } from '../pipeline/idempotency.js';
import type { AppContext, RequestState, Services } from '../state.js';
import { actorOf, unwrap } from './support.js';
import * as E from 'fp-ts/lib/Either.js';

// A repeat of a keyed request (Idempotency-Key, contract §7.1) is answered at its route, after
// the caller's authentication, role and scopes are checked again for the operation (contract
// §11): a demoted admin, or a narrower token of the same user, gets today's refusal, never the
// kept answer. The idempotency stage finds the kept answer before routing and leaves it in the
// request's state (pendingReplay); an upload's is found by its route (claimStreamed).

/** Answers a repeat with its kept answer (its secret member null) once the caller may run the operation; else throws today's refusal. */
export const answerRepeat = ({ app }: Services, ctx: AppContext, answer: StoredAnswer): void => {
  ctx.state.pendingReplay = null;
  const keyed = ctx.state.keyed;
  // Every keyed route declares its access (catalog.ts refuses one that does not): this is a bug.
  if (keyed === null) throw new Error('a repeat reached a route that declares no access');
  const refused = app.idempotency.mayRepeat(actorOf(ctx), keyed.access);
  if (refused !== null) unwrap(E.left(refused));
  const reply = replayReply(answer);
  ctx.state.reply = reply.raw === undefined ? { ...reply, body: withoutSecret(reply.body, keyed.secret) } : reply;
};

/** The first handler of a keyed route: notes what the operation declares, and answers a waiting repeat. */
export const repeatGate =
  (services: Services, keyed: Keyed): RouterMiddleware<RequestState> =>
  (ctx, next) => {
    ctx.state.keyed = keyed;
    const answer = ctx.state.pendingReplay;
    if (answer === null) return next();
    answerRepeat(services, ctx, answer);
    return Promise.resolve();
  };
