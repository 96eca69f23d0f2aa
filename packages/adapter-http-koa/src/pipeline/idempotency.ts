import { idempotencyScope, type IdempotencyDecision, type StoredAnswer } from '@support/application';
import type { Middleware } from 'koa';
import { createHash } from 'node:crypto';
import { gzipBody } from '../conventions/compression.js';
import { hasBody, requestBytes } from '../conventions/request-body.js';
import { compactJson } from '../conventions/serialization.js';
import { formatHttpDate } from '../conventions/http-date.js';
import { problem } from '../errors/http-problem.js';
import type { Reply } from '../reply.js';
import type { AppContext, RequestState, Services } from '../state.js';

// Idempotency-Key (contract §7.1; IETF draft "The Idempotency-Key HTTP Header Field"), the one
// home of it: a POST under /v1 but the token endpoints may carry a key. The stage (after the
// caller is known and counted, before any route) claims the key and runs the request in the
// claim's guard (its first durable write marks the claim written, in the same commit where the
// store can: after a crash the request is answered 409 answer-lost, never run twice), or answers
// a repeat; `keepForKey`, called by respond once the answer is rendered and before it leaves,
// keeps the answer (or releases the claim).
//
// What is kept is the answer's meaning, decided on its real status: the status, the headers
// the reply itself carries (Location, Allow...), Last-Modified, and the body as compact JSON.
// Never the rendering: a repeat is rendered for the repeat's own request (envelope, callback,
// pretty, gzip), so the same request gets the same bytes and a repeat that asks for another
// presentation gets the same answer in that presentation. (docs/idempotency.md)

export const idempotencyKeyHeader = 'Idempotency-Key';
export const replayedHeader = 'Idempotent-Replayed';

/** 1-255 printable ASCII characters (%x21-7E). */
export const isIdempotencyKey = (s: string): boolean => /^[!-~]{1,255}$/.test(s);

/** Whether a request of this method and path takes the header into account. */
export const takesIdempotencyKey = (method: string, path: string): boolean =>
  method === 'POST' && path.startsWith('/v1/') && !path.startsWith('/v1/oauth/');

/** SHA-256 over the method, the path and the SHA-256 of the body bytes. */
export const requestFingerprint = (method: string, path: string, body: Buffer): string =>
  fingerprintOfHash(method, path, createHash('sha256').update(body).digest('hex'));

/** The same, from the body's hash (an upload's, taken while it streamed). */
const fingerprintOfHash = (method: string, path: string, bodyHash: string): string =>
  createHash('sha256').update(`${method}\n${path}\n${bodyHash}`).digest('hex');

/** The answer with its secret member (a webhook's `secret`, a new token's `token`) null: never kept, never repeated (contract §11). */
export const withoutSecret = (body: unknown, secret: string | undefined): unknown =>
  secret !== undefined && typeof body === 'object' && body !== null && !Array.isArray(body) && secret in body
    ? { ...body, [secret]: null }
    : body;

/** What is kept of a reply, without its secret member; null when it is not an answer to keep (no JSON body to re-render). */
export const keptAnswer = (reply: Reply, secret?: string): StoredAnswer | null => {
  if (reply.raw !== undefined || reply.page !== undefined || reply.cursor !== undefined) return null;
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.lastModified !== undefined && reply.lastModified !== null)
    headers['Last-Modified'] = formatHttpDate(reply.lastModified);
  const body = withoutSecret(reply.cacheable !== undefined ? reply.cacheable.build() : reply.body, secret);
  return {
    status: reply.status,
    headers,
    body: body === undefined ? new Uint8Array(0) : Buffer.from(compactJson(body)),
  };
};

/** A kept answer as the reply to a repeat: rendered like any reply, marked as a replay. */
export const replayReply = (answer: StoredAnswer): Reply => {
  const { 'Last-Modified': lastModified, ...headers } = answer.headers;
  const bytes = Buffer.from(answer.body);
  if (headers['Content-Type'] !== undefined) return legacyReplay(answer.status, headers, bytes, lastModified);
  return {
    status: answer.status,
    body: bytes.length === 0 ? undefined : (JSON.parse(bytes.toString('utf8')) as unknown),
    headers: { ...headers, [replayedHeader]: 'true' },
    ...(lastModified === undefined ? {} : { lastModified: Date.parse(lastModified) }),
  };
};

/**
 * An answer kept before answers were kept unrendered (it names its Content-Type): its bytes
 * as they were sent. Such records expire within the 24 hours keys are kept.
 */
const legacyReplay = (
  status: number,
  headers: Readonly<Record<string, string>>,
  bytes: Buffer,
  lastModified: string | undefined,
): Reply => {
  const { 'Content-Type': contentType = 'application/json; charset=utf-8', ETag: etag, ...rest } = headers;
  return {
    status,
    body: undefined,
    headers: {
      ...rest,
      ...(lastModified === undefined ? {} : { 'Last-Modified': lastModified }),
      [replayedHeader]: 'true',
    },
    raw: { contentType, bytes, ...(etag === undefined ? {} : { etag }), gzipped: () => gzipBody(bytes) },
  };
};

/**
 * Hands the answer to the Idempotency-Key claim this request holds, if any, before it is
 * sent: a repeat that arrives once the client has it finds it kept. `reply` null: the answer
 * could not be rendered (a 500), the claim is released. Which statuses are kept is the
 * application's rule (isKeptStatus), applied to the reply's own status, never the envelope's
 * 200. The answer stands whatever happens here; a claim that could not be settled runs out
 * its lease.
 */
export const keepForKey = async (ctx: AppContext, { options }: Services, reply: Reply | null): Promise<void> => {
  const finish = ctx.state.idempotency;
  if (finish === null) return;
  ctx.state.idempotency = null;
  try {
    await finish(reply === null ? null : keptAnswer(reply, ctx.state.keyed?.secret));
  } catch (e) {
    options.logger.error('idempotency key not settled', {
      request_id: ctx.state.requestId,
      detail: e instanceof Error ? e.message : String(e),
    });
  }
};

const fingerprintOf = async (ctx: AppContext): Promise<string> => {
  let body: Buffer = Buffer.alloc(0);
  if (hasBody(ctx)) {
    try {
      body = await requestBytes(ctx);
    } catch {
      // An unreadable body is the route's to refuse (the same problem, read once); the
      // refusal is kept for the key like any 4xx.
      body = Buffer.from('\u0000unreadable');
    }
  }
  return requestFingerprint(ctx.method, ctx.path, body);
};

const headerName = idempotencyKeyHeader.toLowerCase();

/** Uploads stream their body: their key is claimed once the body's hash is known (`claimStreamed`). */
const streamsBody = (method: string, path: string): boolean => method === 'POST' && path === '/v1/uploads';

/** How the request that holds a claim runs: so that its first durable write marks the claim (a crash never runs it twice). */
type Guard = <T>(work: () => Promise<T>) => Promise<T>;

/** The request runs without a claim. */
const unguarded: Guard = (work) => work();

/** 409 (contract §7.1): the first request with the key is still running. */
const inFlight = () =>
  problem(
    'idempotencyInFlight',
    `a request with this ${idempotencyKeyHeader} is still running; retry after it has finished`,
    { headers: { 'Retry-After': '1' } },
  );

/**
 * Acts on a claim's decision: the guard the request runs in when it runs; null for a repeat,
 * whose kept answer waits in the state for its route to answer it once the caller may still
 * run the operation (routes/repeat-gate.ts, contract §11); a refusal throws.
 */
const decide = (ctx: AppContext, decision: IdempotencyDecision): Guard | null => {
  switch (decision.kind) {
    case 'replay':
      ctx.state.pendingReplay = decision.answer;
      return null;
    case 'mismatch':
      throw problem(
        'idempotencyKeyReused',
        `this ${idempotencyKeyHeader} was used for another request (method, path or body differ); use a new key for a new request`,
      );
    case 'in_flight':
      throw inFlight();
    case 'answer_lost':
      throw problem(
        'idempotencyAnswerLost',
        `the first request with this ${idempotencyKeyHeader} was carried out, but the service stopped before its answer was kept; it is not run again under this key: look its result up (the collection it wrote to, or GET /v1/events), or send it with a new key to run it again`,
      );
    case 'run':
      ctx.state.idempotency = decision.finish;
      return decision.guard;
  }
};

/**
 * What an upload says beside its bytes: its name (`?filename=`, `Content-Disposition`) and its
 * declared media type. A raw upload's travel outside the body, so its key's fingerprint takes
 * them with the bytes: the same bytes under the same key with another name are another request
 * (422), as a JSON body with another field is (probed: they replayed the first upload's name).
 */
const uploadInputs = (ctx: AppContext): string =>
  JSON.stringify([ctx.query.filename ?? null, ctx.get('Content-Disposition'), ctx.request.type]);

/**
 * Claims the key a streamed upload carries, once its body has been read and hashed: the guard
 * the upload's write runs in when it is to be kept (no key: no guard), null for a repeat (its
 * kept answer waits in the state; the repeat's bytes are thrown away).
 */
export const claimStreamed = async (
  { app }: Services,
  ctx: AppContext,
  bodyHash: () => string,
): Promise<Guard | null> => {
  const key = ctx.state.streamedKey;
  if (key === null) return unguarded;
  const fingerprint = fingerprintOfHash(ctx.method, ctx.path, `${bodyHash()}\n${uploadInputs(ctx)}`);
  return decide(ctx, await app.idempotency.begin(ctx.state.actor, ctx.ip, key, fingerprint));
};

/** The stage: a request with a key claims it and runs, or is answered; others pass through. */
export const idempotency = ({ app }: Services): Middleware<RequestState> => {
  // An upload's key is claimed in the store only once its body is hashed (`claimStreamed`): a
  // second upload with the key while the first one's bytes still arrive would find no claim.
  // The keys of the uploads this process is reading now answer it 409, as §7.1 wants for any
  // request still running. (Per process: with STORE=mongo and several processes, one sent to
  // another process while the first streams runs; the store's claim still keeps one upload and
  // replays its answer to the other, docs/attachments.md.)
  const streaming = new Set<string>();
  const streamedUpload = async (ctx: AppContext, next: () => Promise<unknown>, key: string): Promise<void> => {
    const id = `${idempotencyScope(ctx.state.actor, ctx.ip)}\n${key}`;
    if (streaming.has(id)) throw inFlight();
    streaming.add(id);
    ctx.state.streamedKey = key;
    try {
      await next();
    } finally {
      streaming.delete(id);
    }
  };
  const claim = async (ctx: AppContext, next: () => Promise<unknown>, key: string | string[]): Promise<void> => {
    if (typeof key !== 'string' || !isIdempotencyKey(key)) {
      throw problem(
        'badIdempotencyKey',
        `${idempotencyKeyHeader} must be 1-255 printable ASCII characters (! to ~), sent once`,
      );
    }
    if (streamsBody(ctx.method, ctx.path)) return streamedUpload(ctx, next, key);
    const decision = await app.idempotency.begin(ctx.state.actor, ctx.ip, key, await fingerprintOf(ctx));
    // Run or repeat, the route is reached: a repeat is answered there, after its checks. A run
    // runs in its claim's guard: its first durable write marks the claim written.
    const guard = decide(ctx, decision);
    await (guard === null ? next() : guard(next));
  };
  // Not async: a request without a key passes through without an async frame of its own.
  return (ctx, next) => {
    const key = ctx.req.headers[headerName];
    return key === undefined || !takesIdempotencyKey(ctx.method, ctx.path) ? next() : claim(ctx, next, key);
  };
};
