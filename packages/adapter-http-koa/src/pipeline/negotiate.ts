import type { Middleware } from 'koa';
import { negotiateVersion } from '../conventions/api-version.js';
import { withoutFormatSuffix } from '../conventions/format-suffix.js';
import { effectiveMethod } from '../conventions/method-override.js';
import { defaultPresentation, parsePresentation } from '../conventions/presentation.js';
import { requestHeader } from '../conventions/request-header.js';
import type { RequestState, Services } from '../state.js';

/** What the request asks of the answer, read before routing: minor version, layout, method, format suffix. */
export const negotiate =
  ({ options }: Services): Middleware<RequestState> =>
  (ctx, next) => {
    const version = ctx.req.headers['x-api-version'];
    ctx.state.apiVersion = negotiateVersion(typeof version === 'string' ? version : undefined, options.versions);
    ctx.state.presentation = ctx.querystring === '' ? defaultPresentation : parsePresentation(ctx.query);
    const method = ctx.method;
    if (method === 'POST') ctx.method = effectiveMethod(method, requestHeader(ctx, 'x-http-method-override'));
    const path = withoutFormatSuffix(ctx.path);
    if (path !== ctx.path) ctx.path = path;
    return next();
  };
