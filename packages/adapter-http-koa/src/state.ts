import type { Actor, Application, StoredAnswer } from '@support/application';
import type { Router, RouterContext } from '@koa/router';
import type Koa from 'koa';
import type { ResponseCache } from './cache/response-cache.js';
import type { ResponseHeaders } from './conventions/response-headers.js';
import type { Presentation } from './conventions/presentation.js';
import type { ResolvedHttpOptions } from './options.js';
import type { Reply } from './reply.js';
import type { Urls } from './representations/urls.js';
import type { Keyed } from './openapi/operation.js';
import type { OperationCatalog } from './routes/catalog.js';

/** What the conventions learn about a request on its way in, for the ones that answer. */
export interface RequestState {
  requestId: string;
  /** performance.now() when the request arrived (a double: no BigInt to allocate per request). */
  startedAt: number;
  /** The minor version served (X-Api-Version), the newest unless the client asked for another. */
  apiVersion: string;
  /** The caller, once a valid token has been seen. */
  actor: Actor | null;
  presentation: Presentation;
  reply: Reply | null;
  /** The answer's header lines so far (conventions/response-headers.ts), written with it. */
  headers: ResponseHeaders;
  /** The request body's bytes once something asked for them (read once, by requestBytes). */
  bodyBytes: Promise<Buffer> | null;
  /** Set while this request holds an Idempotency-Key claim: told the answer once it is rendered. */
  idempotency: ((answer: StoredAnswer | null) => Promise<void>) | null;
  /** An upload's Idempotency-Key, claimed by the route once the body's hash is known (claimStreamed). */
  streamedKey: string | null;
  /** A repeat's kept answer, found before routing: the route answers it once the caller may run the operation (routes/repeat-gate.ts). */
  pendingReplay: StoredAnswer | null;
  /** What the keyed route reached declares (who may run it, its secret member). */
  keyed: Keyed | null;
}

/** Everything a route needs besides the request: the use cases, the URL builder, the options, the response cache. */
export interface Services {
  readonly app: Application;
  readonly urls: Urls;
  readonly options: ResolvedHttpOptions;
  readonly cache: ResponseCache;
  /** Every operation the routes declare (routes/declare.ts), and the scopes each accepts. */
  readonly operations: OperationCatalog;
}

export type AppContext = Koa.ParameterizedContext<RequestState>;

export type AppRouter = Router<RequestState>;
export type RouteContext = RouterContext<RequestState>;
