import type { HttpLogger } from '@support/adapter-http-koa';
import { StoreUnavailableError } from '@support/application';

export interface WebhookWorker {
  /** Stops starting rounds and waits for the round in flight (its attempts end within their timeout). */
  stop(): Promise<void>;
}

/**
 * Runs webhook delivery rounds: again at once while a round found work, else every `pollMs`.
 * While the store is unreachable, deliveries pause (one log line) and resume when it answers;
 * nothing is lost, because the delivery state lives in the store.
 */
export const startWebhookWorker = (deliverDue: () => Promise<number>, logger: HttpLogger, pollMs: number): WebhookWorker => {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | null = null;
  let paused = false;

  const schedule = (delayMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = runRound().finally(() => {
        round = null;
      });
    }, delayMs);
    timer.unref();
  };

  const runRound = async (): Promise<void> => {
    let attempts = 0;
    try {
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
    schedule(attempts > 0 ? 0 : pollMs);
  };

  schedule(0);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
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
