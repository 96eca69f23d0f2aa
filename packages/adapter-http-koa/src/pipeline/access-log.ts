import type { Middleware } from 'koa';
import type { RequestState, Services } from '../state.js';

// One line per request. The query string is logged with secrets masked: a token sent as
// ?access_token= must never reach a log, however its name is spelled (?access%5Ftoken= is the
// same parameter to the query parser: names are decoded before they are compared; contract §11).
// A name that only begins with a secret's (?access_token[]=, ?access_token.x=: what a client
// serialising a list or an object sends) is not the token to this API (401) but still carries
// one: masked too (probed: it was logged in clear).

const secretParameters = /^(access_token|refresh_token|token|password)(?![a-z0-9])/i;

/** A parameter name as the query parser reads it (+ is a space, %XX a byte); a malformed escape as it is. */
const decodedName = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
};

export const maskedQuery = (querystring: string): string =>
  querystring
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const name = p.split('=', 1)[0] ?? '';
      return secretParameters.test(decodedName(name)) ? `${name}=[redacted]` : p;
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
        // Built field by field (no spreads: this runs once per request); the order is the line's.
        const fields: Record<string, unknown> = { request_id: ctx.state.requestId, method, path };
        if (query !== '') fields.query = maskedQuery(query);
        fields.status = ctx.status;
        // Whole microseconds, in milliseconds.
        fields.duration_ms = Math.floor((performance.now() - ctx.state.startedAt) * 1000) / 1000;
        if (ctx.state.actor !== null) fields.user_id = ctx.state.actor.user.id;
        fields.client_ip = ctx.ip;
        options.logger.info('request', fields);
      }
    }
  };
