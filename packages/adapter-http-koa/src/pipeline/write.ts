import type { Rendered } from '../conventions/rendered.js';
import type { AppContext } from '../state.js';

// Writes a rendered answer in one writeHead and one end, bypassing Koa's own response
// handling (ctx.respond = false): the header lines are already in order
// (conventions/response-headers.ts). What Koa would add, it adds here, the same way:
// Content-Length after the other lines; none for statuses without a body (204, 205, 304);
// no body for HEAD; and nothing at all when the connection can no longer be written.

const withoutBody = new Set([204, 205, 304]);

export const writeAnswer = (ctx: AppContext, answer: Rendered): void => {
  ctx.respond = false;
  const res = ctx.res;
  res.statusCode = answer.status;
  if (res.writableEnded || (res.socket !== null && !res.socket.writable)) {
    res.end();
    return;
  }
  const headers = ctx.state.headers;
  const body = withoutBody.has(answer.status) ? null : (answer.body ?? emptyBody);
  if (body !== null) headers.set('Content-Length', String(body.length));
  res.writeHead(answer.status, headers.toArray() as string[]);
  if (body === null || body.length === 0 || ctx.method === 'HEAD') res.end();
  else res.end(body);
};

const emptyBody = Buffer.alloc(0);
