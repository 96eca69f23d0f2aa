import type { Middleware } from 'koa';
import { defaultPresentation } from '../conventions/presentation.js';
import { requestIdFrom, requestIdHeader } from '../conventions/request-id.js';
import { arrivedOverTls } from '../conventions/transport-security.js';
import { requestHeader } from '../conventions/request-header.js';
import { ResponseHeaders } from '../conventions/response-headers.js';
import type { RequestState, Services } from '../state.js';

const requestIdLower = requestIdHeader.toLowerCase();

/** HSTS for a year (contract §11). */
export const strictTransportSecurity = 'max-age=31536000';

/** First of all: the request's state, and its id on the response whatever happens next. */
export const startRequest =
  ({ options }: Services): Middleware<RequestState> =>
  (ctx, next) => {
    ctx.state.startedAt = performance.now();
    ctx.state.requestId = requestIdFrom(requestHeader(ctx, requestIdLower));
    ctx.state.apiVersion = options.versions.current;
    ctx.state.actor = null;
    ctx.state.presentation = defaultPresentation;
    ctx.state.reply = null;
    ctx.state.bodyBytes = null;
    ctx.state.idempotency = null;
    ctx.state.streamedKey = null;
    ctx.state.pendingReplay = null;
    ctx.state.keyed = null;
    ctx.state.headers = new ResponseHeaders();
    ctx.state.headers.set(requestIdHeader, ctx.state.requestId);
    // Every answer over HTTPS tells the browser to come back only over HTTPS (contract §11); a plain one cannot (RFC 6797 §7.2).
    if (arrivedOverTls(ctx.req, options.trustProxy))
      ctx.state.headers.set('Strict-Transport-Security', strictTransportSecurity);
    return next();
  };
