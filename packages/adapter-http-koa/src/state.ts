import type { Actor, Application, StoredAnswer } from '@support/application';
import type { Router, RouterContext } from '@koa/router';
import type Koa from 'koa';
import type { Presentation } from './conventions/presentation.js';
import type { ResolvedHttpOptions } from './options.js';
import type { Reply } from './reply.js';
import type { Urls } from './representations/urls.js';

/** What the conventions learn about a request on its way in, for the ones that answer. */
export interface RequestState {
  requestId: string;
  startedAt: bigint;
  /** The minor version served (X-Api-Version), the newest unless the client asked for another. */
  apiVersion: string;
  /** The caller, once a valid token has been seen. */
  actor: Actor | null;
  presentation: Presentation;
  reply: Reply | null;
  /** The request body's bytes once something asked for them (read once, by requestBytes). */
  bodyBytes: Promise<Buffer> | null;
  /** Set while this request holds an Idempotency-Key claim: told the answer once it is rendered. */
  idempotency: ((answer: StoredAnswer | null) => Promise<void>) | null;
}

/** Everything a route needs besides the request: the use cases, the URL builder, the options. */
export interface Services {
  readonly app: Application;
  readonly urls: Urls;
  readonly options: ResolvedHttpOptions;
}

export type AppContext = Koa.ParameterizedContext<RequestState>;

export type AppRouter = Router<RequestState>;
export type RouteContext = RouterContext<RequestState>;
