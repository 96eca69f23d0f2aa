import { request, type RequestOptions } from 'node:https';
import { readAnswer, type ChildAnswer, type Started } from './child.js';

// A request whose body a test sends piece by piece, over HTTPS to the real process (its served
// certificate pinned): how a slow or pausing client meets the service.

export interface Sending {
  /** Writes bytes; resolves once the socket took them. */
  write(bytes: Buffer): Promise<void>;
  /** The answer, with the ms from the request's start. */
  readonly answer: Promise<ChildAnswer & { ms: number }>;
  stop(): void;
  /** Whether the connection is gone (answered and closed, or stopped). */
  closed(): boolean;
}

/** The options of a POST of `length` bytes to `path` as `token`'s holder (the served certificate pinned). */
export const postOptions = (
  child: Started,
  token: string,
  path: string,
  length: number,
  contentType = 'application/octet-stream',
): RequestOptions => ({
  host: '127.0.0.1',
  port: child.port,
  method: 'POST',
  path,
  ca: child.servedPem,
  servername: 'localhost',
  agent: false,
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType, 'Content-Length': String(length) },
});

/** Starts a POST of `length` bytes to `path` as `token`'s holder (as postOptions); the body is sent with `write`. */
export const sending = (...post: Parameters<typeof postOptions>): Sending => {
  const started = performance.now();
  const options = postOptions(...post);
  let req: ReturnType<typeof request> | undefined;
  const answer = new Promise<ChildAnswer & { ms: number }>((resolve, reject) => {
    req = request(options, (res) => {
      readAnswer(res).then((a) => {
        resolve({ ...a, ms: performance.now() - started });
      }, reject);
    });
    // The server closes the connection after its answer: a write still under way may fail then.
    req.on('error', (e) => {
      setTimeout(() => {
        reject(e);
      }, 2_000);
    });
  });
  return {
    write: (bytes) =>
      new Promise((resolve) => {
        const r = req;
        if (r === undefined || r.destroyed || r.write(bytes)) {
          resolve();
          return;
        }
        const done = (): void => {
          r.off('drain', done).off('close', done);
          resolve();
        };
        r.on('drain', done).on('close', done);
      }),
    answer,
    stop: () => req?.destroy(),
    closed: () => req === undefined || req.destroyed,
  };
};
