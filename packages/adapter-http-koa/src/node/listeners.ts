import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { HttpLogger } from '../options.js';
import {
  answerClientError,
  answerConnect,
  answerLateRequest,
  answerRefusedRequest,
  hostProblem,
} from './client-error.js';
import { watchReceipt } from './request-receipt.js';

/**
 * Hands a listening server's requests to `handler`, with the bounds every request has: the
 * JSON answers of errors Node raises before routing (and of a request without its Host), 20 s for the header fields, REQUEST_TIMEOUT_S
 * for the rest of the request (request-receipt.ts: Node's own requestTimeout is one bound for
 * every request, so it is off), and idle kept-alive connections closed after 65 s.
 */
export const serveRequests = (
  server: Server,
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>,
  logger: HttpLogger,
  requestTimeoutMs: number,
): void => {
  const late = answerLateRequest(logger);
  const refuse = answerRefusedRequest(logger);
  // Node's check of Host answers a bare 400 without a body; hostProblem makes it in JSON.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    watchReceipt(req, res, requestTimeoutMs, late);
    const refused = hostProblem(req);
    if (refused === null) void handler(req, res);
    else refuse(req, res, refused);
  });
  server.on('clientError', answerClientError(logger));
  server.on('connect', answerConnect(logger));
  server.headersTimeout = 20_000;
  server.requestTimeout = 0;
  // Idle kept-alive connections: longer than common proxies and client pools (60 s), so that the
  // client, not the server, closes them (a client reusing one as the server closes it gets ECONNRESET).
  server.keepAliveTimeout = 65_000;
};
