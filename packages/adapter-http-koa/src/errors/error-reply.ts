import {
  PasswordHasherBusyError,
  StoreTimeLimitError,
  StoreUnavailableError,
  StoreWriteNotConfirmedError,
} from '@support/application';
import type { Reply } from '../reply.js';
import { HttpProblem, problem } from './http-problem.js';

/** Seconds a client should wait before retrying while the store is unreachable. */
export const storeRetryAfterSeconds = 5;

/** Seconds a client should wait when the password-hashing queue is full. */
export const passwordsRetryAfterSeconds = 1;

/** The JSON body of an error: {code, message, description[, errors]} (plus RFC 6749 members on token failures). */
export const problemBody = (p: HttpProblem): Record<string, unknown> => ({
  ...(p.extras.oauthError === undefined ? {} : { error: p.extras.oauthError, error_description: p.description }),
  code: p.kind.code,
  message: p.kind.message,
  description: p.description,
  ...(p.extras.errors === undefined ? {} : { errors: p.extras.errors }),
  ...(p.extras.oldestSeq === undefined ? {} : { oldest_seq: p.extras.oldestSeq }),
});

export const problemReply = (p: HttpProblem): Reply => ({
  status: p.kind.status,
  body: problemBody(p),
  ...(p.extras.headers === undefined ? {} : { headers: p.extras.headers }),
});

const hasStatus = (e: unknown): e is { status: number; expose?: boolean } =>
  typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number';

/**
 * Any thrown value as an HTTP problem. Expected 4xx arrive as HttpProblem; a store outage
 * is 503 with Retry-After; a write the store could not confirm and a request the store
 * stopped at its time limit are 500 with codes of their own; anything else is a bug: 500,
 * with nothing of it in the body.
 */
export const toProblem = (e: unknown): { problem: HttpProblem; unexpected: boolean } => {
  if (e instanceof HttpProblem) return { problem: e, unexpected: false };
  if (e instanceof StoreUnavailableError) {
    return {
      problem: problem(
        'storeUnavailable',
        'the data store is not reachable right now; retry after the number of seconds in Retry-After',
        {
          headers: { 'Retry-After': String(storeRetryAfterSeconds) },
        },
      ),
      unexpected: false,
    };
  }
  // A full password-hashing queue (contract §11): nothing was done, a retry soon is welcome.
  if (e instanceof PasswordHasherBusyError) {
    return {
      problem: problem(
        'passwordsBusy',
        'too many password checks are waiting right now; nothing was changed: retry after the number of seconds in Retry-After',
        { headers: { 'Retry-After': String(passwordsRetryAfterSeconds) } },
      ),
      unexpected: false,
    };
  }
  // Not 503: Retry-After would invite a blind retry, which could apply the write twice.
  if (e instanceof StoreWriteNotConfirmedError) {
    const description =
      'the data store could not confirm this write (its answer was lost, or the majority did not confirm it in time): it may have been applied. Read the resource (or the list it belongs to) before sending it again; an error answer is not kept for an Idempotency-Key, so a repeat with the same key runs the write again';
    return { problem: problem('writeNotConfirmed', description), unexpected: true };
  }
  // Not 503 either: the store is up, and the same request would most likely meet the limit again.
  if (e instanceof StoreTimeLimitError) {
    const description =
      'the data store stopped this request at its time limit; the same request is likely to be stopped again (a narrower query or an earlier page may succeed)';
    return { problem: problem('storeTimeLimit', description), unexpected: true };
  }
  // Malformed percent-encoding in a path reaches us from the router as URIError.
  if (e instanceof URIError)
    return { problem: problem('malformedRequest', 'the URL is not validly percent-encoded'), unexpected: false };
  // A 4xx raised by Koa itself (http-errors with expose): a client error, said plainly.
  if (hasStatus(e) && e.status >= 400 && e.status < 500 && e.expose === true) {
    return { problem: problem('malformedRequest', 'the request could not be understood'), unexpected: false };
  }
  return {
    problem: problem('internal', 'the server failed to answer this request; it has been logged'),
    unexpected: true,
  };
};
