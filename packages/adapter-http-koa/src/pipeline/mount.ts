import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { HttpLogger } from '../options.js';
import type { AppRouter, RequestState } from '../state.js';
import { isConnectionLost } from './client-gone.js';
import { laneRoutesOf, shortLane, type LaneRoutes } from './lane.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

/** What `mountPipeline` mounted: Koa runs `koa.middleware`, the lane runs `stages` then one of `lane`'s handlers. */
export interface MountedPipeline {
  readonly koa: Koa<RequestState>;
  readonly stages: readonly Middleware<RequestState>[];
  readonly router: AppRouter;
  readonly lane: LaneRoutes;
  /** The request listener: the short lane first (when on), else Koa. */
  listener(): RequestListener;
}

/**
 * The one place the pipeline is mounted, for both entries: on Koa, the stages then the
 * router (and its 405/501 answers); on the short lane (pipeline/lane.ts), the same stages
 * then the handler the router would run, for the routes read from the router's layers.
 * Nothing else is added to Koa (a test holds `koa.middleware` to this). What escapes
 * `respond` on either entry (a socket error while an answer is written) reaches Koa's
 * `error` event, logged here.
 */
export const mountPipeline = (
  koa: Koa<RequestState>,
  stages: readonly Middleware<RequestState>[],
  router: AppRouter,
  { shortLane: laneOn, logger }: { readonly shortLane: boolean; readonly logger: HttpLogger },
): MountedPipeline => {
  for (const stage of stages) koa.use(stage);
  koa.use(router.routes());
  koa.use(router.allowedMethods());
  koa.on('error', (e: unknown) => {
    // A client that closed or reset its connection under an answer: nothing of ours failed.
    if (isConnectionLost(e)) logger.info('connection lost', { detail: (e as Error).message });
    else logger.error('unhandled', { detail: e instanceof Error ? e.message : String(e) });
  });
  const lane = laneRoutesOf(router);
  return {
    koa,
    stages,
    router,
    lane,
    listener: () => {
      const long = koa.callback();
      if (!laneOn) return long;
      const short = shortLane(koa, stages, lane);
      return (req, res) => short(req, res) ?? long(req, res);
    },
  };
};
