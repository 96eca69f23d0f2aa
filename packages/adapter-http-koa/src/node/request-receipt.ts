import type { IncomingMessage, ServerResponse } from 'node:http';

// How long a request may take to arrive (REQUEST_TIMEOUT_S, default 60 s from its header
// fields; the header fields themselves have Node's headersTimeout). This replaces Node's
// requestTimeout, which is one bound for every request of a server: an upload's body needs
// its own (conventions/upload-pacing.ts). Its clock stops while the upload waits for its turn
// (the wait is the service's doing, not the client's), and every byte it receives moves the
// deadline on at the minimum rate (UPLOAD_MIN_BYTES_PER_S), as Apache's mod_reqtimeout does:
// a client that keeps sending at that rate is never cut off, one that trickles slower or stops
// is, and a connection is held at most the bound plus UPLOAD_MAX_BYTES at that rate.
// A request late past its deadline gets a 408 (when nothing was answered yet) and its
// connection closes: an upload being read then fails, and nothing of it is kept.

export const defaultRequestTimeoutMs = 60_000;

/** The clock of one request that has not all arrived yet. */
export interface ReceiptClock {
  /** Stops the clock (an upload waiting for its turn). */
  pause(): void;
  /** Starts it again. */
  resume(): void;
  /** Moves the deadline `ms` later (time an upload's received bytes earned). */
  extend(ms: number): void;
  /** Whether the deadline passed before the request had arrived (it was answered 408). */
  readonly expired: () => boolean;
}

const clocks = new WeakMap<IncomingMessage, ReceiptClock>();

/** The receipt clock of `req`, when the server watches it (null in a test's bare request). */
export const receiptClock = (req: IncomingMessage): ReceiptClock | null => clocks.get(req) ?? null;

/**
 * Starts the clock of a request as it arrives (the server's 'request' event). When its body has
 * not all arrived `ms` after (pauses and earned time counted), `late` answers it.
 */
export const watchReceipt = (
  req: IncomingMessage,
  res: ServerResponse,
  ms: number,
  late: (req: IncomingMessage, res: ServerResponse) => void,
): void => {
  // No body: the request arrived with its header fields (a GET, most requests): nothing to watch.
  const { 'content-length': length, 'transfer-encoding': te } = req.headers;
  if (te === undefined && (length === undefined || length === '0')) return;
  let deadline = performance.now() + ms;
  let pausedAt: number | null = null;
  let expired = false;
  let done = false;
  let timer: NodeJS.Timeout | null = null;
  const stop = (): void => {
    done = true;
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const arm = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(check, Math.max(1, Math.ceil(deadline - performance.now())));
  };
  function check(): void {
    timer = null;
    if (done || pausedAt !== null) return;
    if (req.complete) {
      stop();
      return;
    }
    if (performance.now() < deadline) {
      arm();
      return;
    }
    expired = true;
    stop();
    late(req, res);
  }
  clocks.set(req, {
    pause: () => {
      if (!done && pausedAt === null) pausedAt = performance.now();
    },
    resume: () => {
      if (done || pausedAt === null) return;
      deadline += performance.now() - pausedAt;
      pausedAt = null;
      arm();
    },
    extend: (more) => {
      deadline += more;
    },
    expired: () => expired,
  });
  res.once('close', stop);
  arm();
};
