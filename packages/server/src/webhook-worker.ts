import type { HttpLogger } from '@support/adapter-http-koa';
import { StoreUnavailableError, type Application } from '@support/application';
import type { WebhookId } from '@support/domain';

export interface WebhookWorker {
  /** Stops starting rounds and waits for the round in flight (its attempts end within their timeout). */
  stop(): Promise<void>;
}

/** Where the worker hears of new events: the feed's newest seq, and a wait for one beyond it. */
export interface FeedNews {
  newest(): Promise<number>;
  waitFor(after: number, signal: AbortSignal): Promise<void>;
}

/** What the worker drives: the application's delivery steps. */
export interface Deliveries {
  due(): Promise<readonly WebhookId[]>;
  deliverNext(id: WebhookId): Promise<boolean>;
}

/**
 * Delivers webhooks, each on its own: a webhook's next step starts as soon as its previous one
 * made progress, so a slow or dead receiver holds up only its own webhook (at most `concurrency`
 * receivers are waited on at once; an attempt holds at most one event and 1 KiB of answer).
 * Between steps the worker waits for the next event (the store wakes it: a delivery follows a
 * write within milliseconds), a step that finished, or `pollMs`, when retries may have come
 * due. While the store is unreachable, deliveries pause (one log line) and resume when it
 * answers; nothing is lost, because the delivery state lives in the store.
 */
export const startWebhookWorker = (
  deliveries: Deliveries,
  news: FeedNews,
  logger: HttpLogger,
  pollMs: number,
  concurrency = 16,
): WebhookWorker => {
  // Read through an object: stop lands between the awaits of a round, out of the compiler's sight.
  const life = { stopped: false };
  const inFlight = new Map<WebhookId, Promise<void>>();
  let paused = false;
  // The wait between rounds ends on news, a step's progress (kick), `pollMs` or stop, whichever
  // comes first: each of them calls `wake` (null while a round runs).
  let wake: (() => void) | null = null;
  // A kick during a round skips the next wait.
  const loop = { kicked: false };
  const kick = (): void => {
    loop.kicked = true;
    wake?.();
  };
  // Read through a call: a kick lands between the awaits of a round, out of the compiler's sight.
  const kicked = (): boolean => loop.kicked;
  // A busy service writes an event per request and each wakes the worker: so the waits share
  // one poll timer (re-armed at each wait) and one feed signal, kept while waits end with news
  // (the feed then detaches from it, EventLog.waitFor's promise) and replaced after a wait that
  // ended otherwise (aborting it lets the feed drop that waiter). An AbortController and a
  // timer per wait cost a POST's CPU time even with no webhook registered (docs/benchmarks.md,
  // "Figures behind the code").
  let feed = new AbortController();
  const poll = setTimeout(() => {
    wake?.();
  }, pollMs);

  const failed = (e: unknown): void => {
    if (!paused) {
      logger.error(
        e instanceof StoreUnavailableError
          ? 'webhook deliveries paused: the store is unreachable'
          : 'webhook delivery failed',
        {
          detail: e instanceof Error ? e.message : String(e),
        },
      );
    }
    paused = true;
  };

  const start = (id: WebhookId): void => {
    const step = deliveries.deliverNext(id).then(
      (progress) => {
        if (paused) logger.info('webhook deliveries resumed', {});
        paused = false;
        const full = inFlight.size >= concurrency;
        inFlight.delete(id);
        // More may be waiting behind this step (its webhook's next event, or a webhook that found no free slot).
        if (progress || full) kick();
      },
      (e: unknown) => {
        inFlight.delete(id);
        failed(e);
      },
    );
    inFlight.set(id, step);
  };

  /** Until news of an event after `seen`, a kick, `pollMs` or stop. */
  const waitAfter = (seen: number): Promise<void> =>
    new Promise<void>((resolve) => {
      let ended = false;
      const end = (withNews: boolean): void => {
        if (ended) return;
        ended = true;
        wake = null;
        if (!withNews) {
          feed.abort();
          feed = new AbortController();
        }
        resolve();
      };
      wake = () => {
        end(false);
      };
      poll.refresh();
      // While the store is away only the poll (or a kick, or stop) ends the wait.
      if (!paused) {
        news.waitFor(seen, feed.signal).then(
          () => {
            end(true);
          },
          () => {
            end(false);
          },
        );
      }
    });

  const round = async (): Promise<void> => {
    loop.kicked = false;
    let seen = 0;
    try {
      // Read before looking for work: an event arriving meanwhile ends the wait below at once.
      seen = await news.newest();
      for (const id of await deliveries.due()) {
        if (inFlight.size >= concurrency) break;
        if (!inFlight.has(id)) start(id);
      }
    } catch (e) {
      failed(e);
    }
    if (life.stopped || kicked()) return;
    await waitAfter(seen);
  };

  const running = (async () => {
    while (!life.stopped) await round();
  })();
  return {
    stop: async () => {
      life.stopped = true;
      kick();
      await running;
      clearTimeout(poll);
      feed.abort();
      await Promise.all(inFlight.values());
    },
  };
};

/** Forgets old events at start and then hourly (EVENTS_RETENTION_DAYS); any housekeeping so, with its own period. */
export const startRetention = (
  forgetOld: () => Promise<void>,
  logger: HttpLogger,
  everyMs = 3_600_000,
  failed = 'old events not forgotten this time',
): { stop(): void } => {
  const run = (): void => {
    forgetOld().catch((e: unknown) => {
      logger.error(failed, { detail: e instanceof Error ? e.message : String(e) });
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

/** One sweep of the files (contract §9): expired uploads, bytes no record names; logged when it did something. */
export const sweepFiles = async (app: Pick<Application, 'attachments'>, logger: HttpLogger): Promise<void> => {
  const { expired, orphans } = await app.attachments.sweep();
  if (expired + orphans > 0) logger.info('uploads swept', { expired_uploads: expired, orphan_blobs: orphans });
};
