import type { IncomingMessage } from 'node:http';
import { maxBodyBytes } from '../conventions/request-body.js';
import type { Rendered, StreamedBody } from '../conventions/rendered.js';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../state.js';

// Writes a rendered answer in one writeHead and one end, bypassing Koa's own response
// handling (ctx.respond = false): the header lines are already in order
// (conventions/response-headers.ts). What Koa would add, it adds here, the same way:
// Content-Length after the other lines; none for statuses without a body (204, 205, 304);
// no body for HEAD; and nothing at all when the connection can no longer be written.
//
// An answer given before the request's body has arrived (a 413 announced by Content-Length,
// a 401 or 404 that never reads the body, a chunked body cut at 1 MiB) gets a lingering close:
// its bytes are sent at once with `Connection: close`, and the connection is ended only once
// the rest of the body has been read and thrown away (at most lingerBytes, lingerMs). Closing
// at once made a client still writing its body meet EPIPE or a reset before it read the
// answer (Schemathesis, under CPU load; always, when the client sent Connection: close).

const withoutBody = new Set([204, 205, 304]);

/** The most of an unread body read and thrown away before closing, and for how long. */
export const linger = { bytes: 4 * maxBodyBytes, ms: 5_000 } as const;

/** Whether the request's body is still (partly) on its way, and small enough to wait for. */
const worthLingering = (req: IncomingMessage): boolean => {
  if (req.complete || req.readableEnded) return false;
  const { 'content-length': length, 'transfer-encoding': te } = req.headers;
  if (length === undefined) return te !== undefined;
  const announced = Number(length);
  return Number.isFinite(announced) && announced > 0 && announced <= linger.bytes;
};

/** Reads what is left of the body and throws it away; resolves at its end, or at the bound. */
const drain = (req: IncomingMessage): Promise<void> =>
  new Promise((resolve) => {
    let seen = 0;
    const done = (): void => {
      clearTimeout(timer);
      req.off('data', counted).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const counted = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > linger.bytes) done();
    };
    const timer = setTimeout(done, linger.ms);
    timer.unref();
    // A body reader that stopped at the limit may still be piped (inflation): cut it off.
    req.unpipe();
    req.on('data', counted).on('end', done).on('error', done).on('close', done);
    req.resume();
  });

export const writeAnswer = (ctx: AppContext, answer: Rendered): void => {
  ctx.respond = false;
  const res = ctx.res;
  res.statusCode = answer.status;
  if (res.writableEnded || (res.socket !== null && !res.socket.writable)) {
    res.end();
    return;
  }
  if (answer.stream !== undefined) {
    writeStreamed(ctx, answer.status, answer.stream);
    return;
  }
  const headers = ctx.state.headers;
  const body = withoutBody.has(answer.status) ? null : (answer.body ?? emptyBody);
  if (body !== null) headers.set('Content-Length', String(body.length));
  const lingering = worthLingering(ctx.req);
  if (lingering) headers.set('Connection', 'close');
  res.writeHead(answer.status, headers.toArray() as string[]);
  const bytes = body === null || body.length === 0 || ctx.method === 'HEAD' ? null : body;
  if (!lingering) {
    if (bytes === null) res.end();
    else res.end(bytes);
    return;
  }
  if (bytes !== null) res.write(bytes);
  void drain(ctx.req).then(() => res.end());
};

const emptyBody = Buffer.alloc(0);

/** A streamed answer: the head at once, then the bytes as the store reads them (none for HEAD). */
const writeStreamed = (ctx: AppContext, status: number, stream: StreamedBody): void => {
  const res = ctx.res;
  ctx.state.headers.set('Content-Length', String(stream.length));
  res.writeHead(status, ctx.state.headers.toArray() as string[]);
  if (ctx.method === 'HEAD' || stream.length === 0) {
    res.end();
    return;
  }
  void stream
    .open()
    .then((bytes) => pipeline(bytes instanceof Readable ? bytes : Readable.from(bytes), res))
    // A client that went away, or bytes that could not be read after the head was sent: the
    // connection is cut (Content-Length tells the client it got less).
    .catch(() => {
      res.destroy();
    });
};
