import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemBody } from '../errors/error-reply.js';
import { problem, type HttpProblem } from '../errors/http-problem.js';
import type { HttpLogger } from '../options.js';
import { prettyJson } from '../conventions/serialization.js';

// Errors Node's HTTP parser raises before any route sees the request (a malformed request
// line, headers over the 16 KiB limit, a client too slow to send its headers). Node would
// answer a bare 400 without a body; we answer the same JSON as everywhere else.

export const maxHeaderBytes = 16 * 1024;

const reasons: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
};

const problemFor = (code: string | undefined): HttpProblem => {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return problem('headersTooLarge', `the request's header fields exceed ${maxHeaderBytes} bytes`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return problem('requestTimeout', 'the request was not received in time');
    default:
      return problem('malformedRequest', 'the request is not valid HTTP/1.1 (request line or header fields)');
  }
};

/** The head lines of an answer given outside Koa (no route saw the request, or it came too late). */
const headLines = (socket: Duplex, requestId: string, length: number): [string, string][] => [
  ['Content-Type', 'application/json; charset=utf-8'],
  ['Content-Length', String(length)],
  ['X-Request-Id', requestId],
  ['X-Content-Type-Options', 'nosniff'],
  ['Cache-Control', 'no-store'],
  ...('encrypted' in socket ? ([['Strict-Transport-Security', 'max-age=31536000']] as [string, string][]) : []),
  ['Connection', 'close'],
];

/** Writes a JSON error straight to the socket and closes it: for requests that never reach Koa. */
const answerOnSocket = (socket: Duplex, p: HttpProblem, logger: HttpLogger, error: string): void => {
  const requestId = randomUUID();
  const body = Buffer.from(prettyJson(problemBody(p)));
  logger.info('client error', { request_id: requestId, status: p.kind.status, error });
  socket.write(
    [
      `HTTP/1.1 ${p.kind.status} ${reasons[p.kind.status] ?? 'Bad Request'}`,
      ...headLines(socket, requestId, body.length).map(([name, value]) => `${name}: ${value}`),
      '',
      '',
    ].join('\r\n'),
  );
  socket.end(body);
};

/** Writes a JSON error as the answer to a request Koa does not see, and closes the connection. */
const answerOutsideKoa = (
  req: IncomingMessage,
  res: ServerResponse,
  p: HttpProblem,
  logger: HttpLogger,
  message: string,
): void => {
  const requestId = randomUUID();
  const body = Buffer.from(prettyJson(problemBody(p)));
  logger.info(message, { request_id: requestId, method: req.method ?? '', status: p.kind.status });
  res.writeHead(p.kind.status, reasons[p.kind.status], headLines(req.socket, requestId, body.length).flat());
  res.end(body);
};

/**
 * How many Host fields the request has, read from its raw header lines: `headersDistinct` would
 * build an array of every field's values, ~1 µs a request against ~0.15 µs for this scan.
 */
const hostFields = (raw: readonly string[]): number => {
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (name.length === 4 && name.toLowerCase() === 'host') hosts += 1;
  }
  return hosts;
};

/**
 * RFC 9112 §3.2: an HTTP/1.1 request names its Host, once; else 400. Node's own check answers
 * a bare 400 without a body (and lets two pass), so it is off (serveRequests) and made here.
 */
export const hostProblem = (req: IncomingMessage): HttpProblem | null => {
  const hosts = hostFields(req.rawHeaders);
  if (hosts > 1) return problem('malformedRequest', 'the request has more than one Host header field; send one');
  if (hosts === 0 && req.httpVersion === '1.1')
    return problem('malformedRequest', 'the request has no Host header field, which HTTP/1.1 requires');
  return null;
};

/** Answers a request refused before Koa sees it (hostProblem): the usual JSON error, and the connection closes. */
export const answerRefusedRequest =
  (logger: HttpLogger) =>
  (req: IncomingMessage, res: ServerResponse, p: HttpProblem): void => {
    answerOutsideKoa(req, res, p, logger, 'client error');
  };

/**
 * Answers a request whose body did not arrive in time (node/request-receipt.ts): 408 with the
 * usual JSON error when nothing was answered yet, and the connection closes once it is written
 * (the rest of the body is not waited for); when an answer was already on its way, the
 * connection is closed. A route still reading the body then fails, and keeps nothing.
 */
export const answerLateRequest =
  (logger: HttpLogger) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    // Node ends no request whose answer is complete when its connection closes: a route still
    // reading the body (an upload) would wait for ever. Its stream fails here instead.
    socket.once('close', () => req.destroy());
    if (res.headersSent || !socket.writable) {
      socket.destroy();
      return;
    }
    const p = problem(
      'requestTimeout',
      'the request was not received in time (REQUEST_TIMEOUT_S from its header fields; an upload earns one more second for every UPLOAD_MIN_BYTES_PER_S bytes it sends)',
    );
    answerOutsideKoa(req, res, p, logger, 'request timeout');
  };

/** A listener for the server's `clientError` event. */
export const answerClientError =
  (logger: HttpLogger) =>
  (err: Error & { code?: string }, socket: Duplex): void => {
    // Gone, or gone mid-request (the connection ended inside a request's body: the request
    // is aborted and answered as its client's going away, pipeline/client-gone.ts).
    if (err.code === 'ECONNRESET' || err.code === 'HPE_INVALID_EOF_STATE' || !socket.writable) {
      socket.destroy();
      return;
    }
    answerOnSocket(socket, problemFor(err.code), logger, err.code ?? err.name);
  };

/**
 * A listener for the server's `connect` event. CONNECT is a proxy's method, which this API
 * does not implement; without a listener Node closes the connection without a word, where
 * every other method gets an answer (501 for those the API does not implement).
 */
export const answerConnect =
  (logger: HttpLogger) =>
  (_request: unknown, socket: Duplex): void => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    answerOnSocket(socket, problem('notImplemented', 'CONNECT is not a method this API implements'), logger, 'CONNECT');
  };
