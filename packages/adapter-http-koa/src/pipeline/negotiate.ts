import type { Middleware } from 'koa';
import { negotiateVersion } from '../conventions/api-version.js';
import { withoutFormatSuffix } from '../conventions/format-suffix.js';
import { effectiveMethod } from '../conventions/method-override.js';
import { parsePresentation } from '../conventions/presentation.js';
import type { RequestState, Services } from '../state.js';

/** What the request asks of the answer, read before routing: minor version, layout, method, format suffix. */
export const negotiate =
  ({ options }: Services): Middleware<RequestState> =>
  async (ctx, next) => {
    ctx.state.apiVersion = negotiateVersion(ctx.get('X-Api-Version'), options.versions);
    ctx.state.presentation = parsePresentation(ctx.query);
    ctx.method = effectiveMethod(ctx.method, ctx.get('X-HTTP-Method-Override'));
    const path = withoutFormatSuffix(ctx.path);
    if (path !== ctx.path) ctx.path = path;
    await next();
  };
