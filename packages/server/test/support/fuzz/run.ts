import { defaultOpenApiDocument } from '@support/adapter-http-koa';
import type { Store } from '@support/application';
import fc from 'fast-check';
import { METHODS } from 'node:http';
import { gzipSync } from 'node:zlib';
import { TYPES } from '../../../src/index.js';
import { startApi, type Answer, type Api } from '../harness.js';
import { operationsOf, type Operation } from './operations.js';
import { requestsFor, type BodyPlan, type FuzzRequest } from './requests.js';
import { schemaResolver, type Json } from './schema-values.js';
import { isRef, percentEncode, toJsonText, urlText, type Resolver } from './wire.js';
import { makeWorld, offlineWebhookSender, resolveIn, storedTarget, tokenOf, type World } from './world.js';

// The document-driven fuzz: for every operation of the served document, requests generated
// from its parameters and bodies (requests.ts), sent as every role over HTTPS to the real
// service. Asserted for each answer: not a 5xx; documented for that operation, status,
// headers and body schema (the harness checks every answer against the document); and when
// the request was refused (or only read), the store is as it was: the change feed's newest
// seq and the stored record the request named (world.ts, storedTarget).

export interface FuzzSettings {
  /** Requests per store (FUZZ_BUDGET), shared equally by the operations. */
  readonly budget: number;
  /** FUZZ_SEED, or a new one per run (printed when a property fails, and at the end). */
  readonly seed: number;
}

const positiveInteger = (name: string, fallback: number): number => {
  const given = process.env[name];
  if (given === undefined || given === '') return fallback;
  const n = Number(given);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${given}`);
  return n;
};

/** About 30 s on two shared cores for the memory store, startup and fixtures included. */
export const defaultBudget = 2_400;

export const fuzzSettings = (): FuzzSettings => ({
  budget: positiveInteger('FUZZ_BUDGET', defaultBudget),
  seed: positiveInteger('FUZZ_SEED', Date.now() % 2_147_483_647),
});

export const fuzzDocument: Json = defaultOpenApiDocument();
const resolveSchema = schemaResolver(fuzzDocument);
export const fuzzOperations: readonly Operation[] = operationsOf(fuzzDocument, resolveSchema);

/** Requests a world serves before it is made again (requests delete and change its fixtures). */
const worldLifetime = 25;

const apiMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const isWrite = (method: string): boolean =>
  method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';

const bodyBytes = (plan: BodyPlan, resolve: Resolver): Buffer => {
  const b = plan.body;
  let bytes: Buffer;
  switch (b.kind) {
    case 'json':
      bytes = Buffer.from(toJsonText(b.value, resolve));
      break;
    case 'text':
      bytes = Buffer.from(b.text);
      break;
    case 'bytes':
      bytes = Buffer.from(b.bytes);
      break;
    case 'form':
      bytes = Buffer.from(
        b.pairs.map(([k, v]) => `${urlText(k)}=${isRef(v) ? percentEncode(String(resolve(v))) : urlText(v)}`).join('&'),
      );
      break;
    case 'huge':
      bytes = Buffer.from(`{"subject":"${'a'.repeat(1_100_000)}"}`);
      break;
  }
  if (plan.bom) bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
  return plan.gzip ? gzipSync(bytes) : bytes;
};

/**
 * Whether a token with `held` may run `op` by the document: its security requirement's scopes
 * (X:write covering X:read), and not a login-only operation. Unknown operation: true (nothing asserted).
 */
const allowedBy = (op: Operation | undefined, held: readonly string[]): boolean => {
  if (op === undefined) return true;
  const [method, path] = op.name.split(' ');
  const described = (fuzzDocument.paths as Record<string, Record<string, Json>>)[path ?? '']?.[
    (method ?? '').toLowerCase()
  ];
  if (described === undefined) return true;
  if (String(described.description).includes('a login token only')) return false;
  const needs = (described.security as { bearer?: string[] }[] | undefined)?.[0]?.bearer ?? [];
  return needs.every((n) => held.includes(n) || (n.endsWith(':read') && held.includes(n.replace(/:read$/, ':write'))));
};

/** The status and code an answer carries, inside an envelope or a JSONP call too. */
const realAnswer = (a: Answer): { readonly status: number; readonly code: number | undefined } => {
  let text = a.text.trim();
  if (text.startsWith('/**/')) text = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  try {
    const body = JSON.parse(text) as { status_code?: number; response?: { code?: number } | null; code?: number };
    if (typeof body.status_code === 'number' && 'response' in body)
      return { status: body.status_code, code: body.response?.code };
    return { status: a.status, code: body.code };
  } catch {
    return { status: a.status, code: undefined };
  }
};

const shown = (s: string, max = 300): string => (s.length > max ? `${s.slice(0, max)}…(${s.length} characters)` : s);

export interface Fuzzer {
  readonly api: Api;
  /** Sends one generated request and checks its answer; throws naming the request and the answer. */
  check(r: FuzzRequest, op?: Operation): Promise<void>;
  /** Makes the next request start from fresh fixtures. */
  renew(): void;
  readonly sent: () => number;
  close(): Promise<void>;
}

/**
 * Starts the service on a store (the memory store unless `env` says otherwise) and a fuzzer for it.
 * The service's clock is the harness's manual clock, which starts on a fixed day (replays stay the
 * same); on a store that forgets expired records by its own clock (MongoDB's TTL monitor, about
 * once a minute), that day would make every token, Idempotency-Key and rate-limit window expired
 * at birth, deleted at the next sweep (the fixtures' admin token among them: 401 from then on).
 * `realTime` sets the clock to the real time first, as the store contracts do (token-store-contract.ts).
 */
export const startFuzzer = async (
  env: Readonly<Record<string, string>> = {},
  options: { readonly realTime?: boolean } = {},
): Promise<Fuzzer> => {
  const api = await startApi(
    // Rate limits would answer most requests 429 after the first thousands: they have their own tests.
    { RATE_LIMIT: '1000000000', ...env },
    {
      keepAlive: true,
      rebind: (c) => {
        c.rebindSync(TYPES.WebhookSender).toConstantValue(offlineWebhookSender());
      },
    },
  );
  const store: Store = api.server.store;
  if (options.realTime === true) api.clock.set(Date.now());
  let creator = await api.adminToken();
  let world: World | null = null;
  let served = 0;
  let sent = 0;

  const currentWorld = async (): Promise<World> => {
    if (world === null || served >= worldLifetime) {
      world = await makeWorld(api, creator, store);
      creator = world.keeper.token;
      served = 0;
    }
    served += 1;
    return world;
  };

  const check = async (r: FuzzRequest, op?: Operation): Promise<void> => {
    const w = await currentWorld();
    const resolve = resolveIn(w);
    const path = `/${r.segments.map((s) => ('literal' in s ? s.literal : 'fixture' in s ? String(resolve(s.fixture)) : urlText(s))).join('/')}`;
    const personal = r.role === 'personal' ? w.personal[r.personal % w.personal.length] : undefined;
    const token = personal?.token ?? tokenOf(w, r.role);
    // At most ~3 KB of query: lists answer it four times over in Link (first, prev, next,
    // last keep every parameter), and 16 KiB of response header is what Node's client reads.
    const query: string[] = [];
    let queryLength = 0;
    for (const [k, v] of r.query) {
      const pair = `${k}=${urlText(v)}`;
      if (queryLength + pair.length > 3_500) continue;
      query.push(pair);
      queryLength += pair.length + 1;
    }
    if (token !== null && r.via === 'query') query.push(`access_token=${token}`);
    const target = `${path}${r.suffix}${query.length === 0 ? '' : `?${query.join('&')}`}`;
    const headers: Record<string, string | readonly string[]> = {};
    if (token !== null && r.via === 'bearer') headers.Authorization = `Bearer ${token}`;
    if (token !== null && r.via === 'basic')
      headers.Authorization = `Basic ${Buffer.from(`${token}:`).toString('base64')}`;
    for (const [name, value] of r.headers) {
      if (typeof value === 'string' || Array.isArray(value)) headers[name] = value as string | readonly string[];
      else {
        const current = await api.request('GET', path, token === null ? {} : { token });
        sent += 1;
        headers[name] = current.header('etag') ?? '"none"';
      }
    }
    // A method Node's parser refuses, and CONNECT, are answered and the connection closed
    // before a body is read: a body would race the close (TCP's business, not the service's).
    const refusedEarly = !METHODS.includes(r.method) || r.method === 'CONNECT';
    const body = r.body === null || refusedEarly ? undefined : bodyBytes(r.body, resolve);
    if (r.body?.contentType !== undefined && r.body.contentType !== null) headers['Content-Type'] = r.body.contentType;
    if (r.body?.gzip === true) headers['Content-Encoding'] = 'gzip';
    const caller =
      r.role === 'admin' || r.role === 'personal'
        ? w.admin.id
        : r.role === 'agent'
          ? w.agent.id
          : r.role === 'customer'
            ? w.customer.id
            : null;

    const snapshot = async (): Promise<string> =>
      `seq ${(await store.events.bounds()).newest}; ${(await storedTarget(store, path, caller)) ?? 'no stored target'}`;
    const before = await snapshot();
    const description = (): string =>
      [
        `${r.method} ${shown(target)} as ${r.role} (token ${r.via})`,
        `  headers: ${shown(JSON.stringify(headers))}`,
        ...(body === undefined
          ? []
          : [
              `  body (${body.length} bytes${r.body?.gzip === true ? ', gzip' : ''}): ${shown(r.body?.gzip === true ? '<gzip>' : body.toString('utf8'))}`,
            ]),
      ].join('\n');
    let answer: Answer;
    try {
      sent += 1;
      answer = await api.request(r.method, target, {
        headers,
        ...(body === undefined ? {} : { body }),
        // The server may answer a body over the limit before reading it, and then close.
        ...(r.body?.body.kind === 'huge' ? { fresh: true } : {}),
      });
    } catch (e) {
      throw new Error(`${description()}\n  → ${e instanceof Error ? e.message : String(e)}`);
    }
    const outcome = `${description()}\n  → ${answer.status} ${shown(answer.text)}`;
    // 501 is the right answer to a method the API does not implement (PROPFIND, TRACE).
    if (answer.status >= 500 && !(answer.status === 501 && !apiMethods.has(r.method)))
      throw new Error(`a 5xx:\n${outcome}`);
    // A personal token outside the operation's documented scopes (or on a login-only one) is never
    // answered with a success: 403 (40303, or 40301 login-only), or a refusal that came first.
    const sameOperation =
      op !== undefined &&
      (r.method === op.method.toUpperCase() || (r.method === 'HEAD' && op.method.toUpperCase() === 'GET'));
    if (personal !== undefined && sameOperation && !op.public && !allowedBy(op, personal.scopes)) {
      const real = realAnswer(answer);
      if (real.status < 400)
        throw new Error(
          `a personal token with ${personal.scopes.join(' ')} was answered outside its scopes:\n${outcome}`,
        );
      // A HEAD answer has no body to read the code from.
      if (real.status === 403 && real.code !== undefined && real.code !== 40303 && real.code !== 40301)
        throw new Error(`a personal token refused for scope without 40303:\n${outcome}`);
    }
    const changedLegitimately = isWrite(r.method) && answer.status >= 200 && answer.status < 300;
    if (!changedLegitimately) {
      const after = await snapshot();
      if (after !== before)
        throw new Error(
          `a ${isWrite(r.method) ? 'refused' : 'read'} request changed the store:\n${outcome}\n  before: ${shown(before, 600)}\n  after:  ${shown(after, 600)}`,
        );
    }
  };

  return {
    api,
    check,
    renew: () => {
      served = worldLifetime;
    },
    sent: () => sent,
    close: () => api.close(),
  };
};

/** Runs `runs` generated requests for one operation, seeded from the run's seed; a failure names FUZZ_SEED. */
export const fuzzOperation = async (
  fuzzer: Fuzzer,
  op: Operation,
  index: number,
  settings: FuzzSettings,
): Promise<void> => {
  fuzzer.renew();
  const runs = Math.max(1, Math.ceil(settings.budget / fuzzOperations.length));
  const seed = (settings.seed + index * 7_919) % 2_147_483_647;
  try {
    await fc.assert(
      fc.asyncProperty(requestsFor(op, resolveSchema), (r) => fuzzer.check(r, op)),
      { seed, numRuns: runs, includeErrorInReport: true, interruptAfterTimeLimit: 120_000 },
    );
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(
      `fuzz of ${op.name} failed; replay with FUZZ_SEED=${settings.seed} (--grep '${op.name}')\n${message}`,
    );
  }
};
