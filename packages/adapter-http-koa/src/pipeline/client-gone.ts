import type { IncomingMessage } from 'node:http';

// A client that closes or resets its connection before its request has arrived (an upload
// cancelled half-way, a script killed mid-request) is not a fault of the service: the request
// is logged once, as nginx does, with status 499 "client closed request", at info level; no
// error line, no stack, and nothing is written to a connection that is gone.

/** The status the access log gives a request whose client went away before it was answered (nginx's). */
export const clientClosedRequest = 499;

/** Node's codes for a connection the peer closed or reset under a read or a write. */
const goneCodes = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Whether `e` says only that the other end of the connection went away. */
export const isConnectionLost = (e: unknown): boolean =>
  e instanceof Error && goneCodes.has((e as NodeJS.ErrnoException).code ?? '');

/**
 * Whether a request failed because its client went away before the request had arrived:
 * Node aborts the request of a connection that closes mid-body (`aborted`, ECONNRESET).
 */
export const clientWentAway = (req: IncomingMessage, e: unknown): boolean =>
  !req.complete && (isConnectionLost(e) || (req.destroyed && req.socket.destroyed));
