import type { Middleware } from 'koa';
import { defaultPresentation } from '../conventions/presentation.js';
import { requestIdFrom, requestIdHeader } from '../conventions/request-id.js';
import type { RequestState, Services } from '../state.js';

/** First of all: the request's state, and its id on the response whatever happens next. */
export const startRequest =
  ({ options }: Services): Middleware<RequestState> =>
  async (ctx, next) => {
    ctx.state.startedAt = process.hrtime.bigint();
    ctx.state.requestId = requestIdFrom(ctx.get(requestIdHeader));
    ctx.state.apiVersion = options.versions.current;
    ctx.state.actor = null;
    ctx.state.presentation = defaultPresentation;
    ctx.state.reply = null;
    ctx.state.bodyBytes = null;
    ctx.state.idempotency = null;
    ctx.set(requestIdHeader, ctx.state.requestId);
    await next();
  };
