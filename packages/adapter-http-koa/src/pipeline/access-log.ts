import type { Middleware } from 'koa';
import type { RequestState, Services } from '../state.js';

// One line per request. The query string is logged with secrets masked: a token sent as
// ?access_token= must never reach a log.

const secretParameters = /^(access_token|refresh_token|token|password)$/i;

export const maskedQuery = (querystring: string): string =>
  querystring
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const name = p.split('=', 1)[0] ?? '';
      return secretParameters.test(name) ? `${name}=[redacted]` : p;
    })
    .join('&');

export const accessLog =
  ({ options }: Services): Middleware<RequestState> =>
  async (ctx, next) => {
    const method = ctx.method;
    const path = ctx.path;
    const query = ctx.querystring;
    try {
      await next();
    } finally {
      if (options.accessLog) {
        options.logger.info('request', {
          request_id: ctx.state.requestId,
          method,
          path,
          ...(query === '' ? {} : { query: maskedQuery(query) }),
          status: ctx.status,
          // Whole microseconds, in milliseconds.
          duration_ms: Math.floor((performance.now() - ctx.state.startedAt) * 1000) / 1000,
          ...(ctx.state.actor === null ? {} : { user_id: ctx.state.actor.user.id }),
          client_ip: ctx.ip,
        });
      }
    }
  };
