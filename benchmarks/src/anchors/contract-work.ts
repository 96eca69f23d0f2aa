// The work the API contract asks of every request besides writing the answer's bytes, written
// with no framework and nothing in between (no stages, no promises): the floor of any server
// that keeps the contract. raw-server.ts does it per request with `contract`, which budget.ts
// runs in its rounds, next to the raw anchor.
//
// Per request: the request id (the client's or a new UUID); the bearer token's SHA-256 and its
// lookup, its expiry, its user; the rate-limit count of the caller's window and its three
// headers; the route's match and the resource's version read; the cached answer's key looked
// up; one access-log line once the answer is written (`written`, as the service's access-log
// stage writes it after the answer, with its fields), made by the service's own logger and
// written once per turn of the event loop (packages/server's jsonLogger and batchedLines, from
// its build) to /dev/null (the service's stdout in the benchmarks).
import { createHash, randomUUID } from 'node:crypto';
import { openSync, writeSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { batchedLines, jsonLogger } from '@support/server';
import type { Headers } from './capture.js';

/** The headers the contract's work sets per request; an answer's other headers are constant. */
const perRequest = ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/**
 * `headers` without the ones the contract's work sets, as a flat list of names and values (null
 * stays null): writeHead takes a list without building an object per request, as the service's
 * one writeHead does (pipeline/write.ts).
 */
export const constantHeaders = (headers: Headers | null): string[] | null =>
  headers === null
    ? null
    : Object.entries(headers)
        .filter(([k]) => !perRequest.includes(k.toLowerCase()))
        .flatMap(([k, v]) => (Array.isArray(v) ? v.flatMap((one) => [k, one]) : [k, v]));

/** What `work` found for one request. */
export interface Worked {
  /** The per-request headers, as a flat list of names and values. */
  readonly headers: string[];
  readonly requestId: string;
  readonly userId: number;
  readonly started: number;
}

/**
 * A worker that accepts one bearer token (the service's, whose answers are replayed). Its
 * `work(req, res)` answers what the request needs, or null after answering 401 itself;
 * `written(req, res, w)` logs the request once its answer is written.
 */
export const contractWorker = (acceptedToken: string) => {
  const digest = (token: string) => createHash('sha256').update(token).digest('base64url');
  const tokens = new Map([[digest(acceptedToken), { userId: 1, expiresAt: Date.now() + 3_600_000 }]]);
  const users = new Map([[1, { id: 1, role: 'admin', active: true }]]);
  const versions = new Map<string, number>();
  const cachedKeys = new Set<string>();
  const windows = new Map<string, number>();
  const limit = 1_000_000_000;
  const windowSeconds = 3600;
  const devNull = openSync('/dev/null', 'w');
  const logger = jsonLogger(batchedLines((text) => writeSync(devNull, text)));
  const resourcePath = /^\/v1\/tickets\/([0-9]{1,20})(?:\?|$)/;

  const work = (req: IncomingMessage, res: ServerResponse): Worked | null => {
    const started = performance.now();
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' ? given : randomUUID();
    const authorization = req.headers.authorization ?? '';
    const token = authorization.startsWith('Bearer ') ? tokens.get(digest(authorization.slice(7))) : undefined;
    const user = token !== undefined && token.expiresAt > Date.now() ? users.get(token.userId) : undefined;
    if (user === undefined || !user.active) {
      res.writeHead(401).end();
      return null;
    }
    const window = Math.floor(Date.now() / 1000 / windowSeconds);
    const windowKey = `${user.id}:${window}`;
    const used = (windows.get(windowKey) ?? 0) + 1;
    windows.set(windowKey, used);
    const resource = resourcePath.exec(req.url ?? '');
    if (resource !== null) {
      const id = resource[1] ?? '';
      const version = versions.get(id) ?? (versions.set(id, 1), 1);
      const key = `ticket:${id}@${version}:${user.role}:${req.url ?? ''}`;
      if (!cachedKeys.has(key)) cachedKeys.add(key);
    }
    const headers = [
      'x-request-id',
      requestId,
      'x-ratelimit-limit',
      String(limit),
      'x-ratelimit-remaining',
      String(limit - used),
      'x-ratelimit-reset',
      String((window + 1) * windowSeconds),
    ];
    return { headers, requestId, userId: user.id, started };
  };
  // The access-log stage's fields (pipeline/access-log.ts; the requests measured have no query string).
  const written = (req: IncomingMessage, res: ServerResponse, w: Worked) => {
    logger.info('request', {
      request_id: w.requestId,
      method: req.method,
      path: req.url,
      status: res.statusCode,
      duration_ms: Math.floor((performance.now() - w.started) * 1000) / 1000,
      user_id: w.userId,
      client_ip: req.socket.remoteAddress,
    });
  };
  return { work, written };
};
