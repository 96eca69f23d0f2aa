import type { HttpLogger } from '@support/adapter-http-koa';
import { StoreUnavailableError } from '@support/application';

export interface WebhookWorker {
  /** Stops starting rounds and waits for the round in flight (its attempts end within their timeout). */
  stop(): Promise<void>;
}

/** Where the worker hears of new events: the feed's newest seq, and a wait for one beyond it. */
export interface FeedNews {
  newest(): Promise<number>;
  waitFor(after: number, signal: AbortSignal): Promise<void>;
}

/**
 * Runs webhook delivery rounds: again at once while a round found work; else it waits for the
 * next event (the store wakes it: a delivery follows a write within milliseconds) or `pollMs`,
 * when retries may have come due. While the store is unreachable, deliveries pause (one log
 * line) and resume when it answers; nothing is lost, because the delivery state lives in the
 * store.
 */
export const startWebhookWorker = (deliverDue: () => Promise<number>, news: FeedNews, logger: HttpLogger, pollMs: number): WebhookWorker => {
  const stopping = new AbortController();
  let paused = false;

  const round = async (): Promise<void> => {
    let attempts = 0;
    let seen = 0;
    try {
      // Read before the round: an event arriving during it ends the wait below at once.
      seen = await news.newest();
      attempts = await deliverDue();
      if (paused) logger.info('webhook deliveries resumed', {});
      paused = false;
    } catch (e) {
      if (!paused) {
        logger.error(e instanceof StoreUnavailableError ? 'webhook deliveries paused: the store is unreachable' : 'webhook delivery round failed', {
          detail: e instanceof Error ? e.message : String(e),
        });
      }
      paused = true;
    }
    if (attempts > 0 || stopping.signal.aborted) return;
    const until = AbortSignal.any([stopping.signal, AbortSignal.timeout(pollMs)]);
    if (paused) {
      await new Promise<void>((resolve) => {
        until.addEventListener('abort', () => {
          resolve();
        }, { once: true });
      });
    } else {
      await news.waitFor(seen, until).catch(() => undefined);
    }
  };

  const running = (async () => {
    while (!stopping.signal.aborted) await round();
  })();
  return {
    stop: async () => {
      stopping.abort();
      await running;
    },
  };
};

/** Forgets old events at start and then hourly (EVENTS_RETENTION_DAYS). */
export const startRetention = (forgetOld: () => Promise<void>, logger: HttpLogger, everyMs = 3_600_000): { stop(): void } => {
  const run = (): void => {
    forgetOld().catch((e: unknown) => {
      logger.error('old events not forgotten this time', { detail: e instanceof Error ? e.message : String(e) });
    });
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
    },
  };
};
