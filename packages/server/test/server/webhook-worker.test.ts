import { StoreUnavailableError } from '@support/application';
import type { WebhookId } from '@support/domain';
import { expect } from 'chai';
import { getEventListeners } from 'node:events';
import { startWebhookWorker, type Deliveries, type FeedNews } from '../../src/webhook-worker.js';

// The delivery worker on its own, with the application's delivery steps stood in for: how it
// rides out a store outage, keeps webhooks apart, wakes on news and stops.

const id = (n: number): WebhookId => n as WebhookId;
const until = async (what: string, probe: () => boolean, timeoutMs = 3000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

const quietNews: FeedNews = {
  newest: () => Promise.resolve(0),
  waitFor: (_after, signal) =>
    new Promise((r) => {
      signal.addEventListener(
        'abort',
        () => {
          r();
        },
        { once: true },
      );
    }),
};

const recordingLogger = () => {
  const lines: { level: string; message: string }[] = [];
  return {
    lines,
    info: (message: string) => void lines.push({ level: 'info', message }),
    error: (message: string) => void lines.push({ level: 'error', message }),
  };
};

/**
 * A feed whose events the test publishes. As the port promises, a wait woken by news leaves
 * nothing on its signal; it records the signals it was given and the most listeners one held.
 */
const fakeFeed = () => {
  let newest = 0;
  const wakers = new Set<() => void>();
  const signals = new Set<AbortSignal>();
  let mostListeners = 0;
  const news: FeedNews = {
    newest: () => Promise.resolve(newest),
    waitFor: (after, signal) => {
      signals.add(signal);
      if (newest > after || signal.aborted) return Promise.resolve();
      return new Promise((r) => {
        const done = (): void => {
          wakers.delete(done);
          signal.removeEventListener('abort', done);
          r();
        };
        wakers.add(done);
        signal.addEventListener('abort', done, { once: true });
        mostListeners = Math.max(mostListeners, getEventListeners(signal, 'abort').length);
      });
    },
  };
  return {
    news,
    signals,
    /** A new event: every waiting reader wakes. */
    publish: (): void => {
      newest += 1;
      for (const wake of [...wakers]) wake();
    },
    waiting: (): number => wakers.size,
    mostListeners: (): number => mostListeners,
  };
};

describe('server: the webhook delivery worker', () => {
  it('pauses while the store is unreachable (one log line) and resumes when it answers', async () => {
    let down = true;
    const served: WebhookId[] = [];
    const deliveries: Deliveries = {
      due: () => (down ? Promise.reject(new StoreUnavailableError('down')) : Promise.resolve([id(1)])),
      deliverNext: (w) => {
        served.push(w);
        return Promise.resolve(false);
      },
    };
    const logger = recordingLogger();
    const worker = startWebhookWorker(deliveries, quietNews, logger, 10);
    await new Promise((r) => setTimeout(r, 80));
    expect(served).to.deep.equal([]);
    expect(logger.lines.filter((l) => l.level === 'error')).to.deep.equal([
      { level: 'error', message: 'webhook deliveries paused: the store is unreachable' },
    ]);
    down = false;
    await until('a delivery after the outage', () => served.length > 0);
    await until('the resumed line', () => logger.lines.some((l) => l.message === 'webhook deliveries resumed'));
    await worker.stop();
  });

  it('keeps webhooks apart: one whose receiver hangs does not hold up another', async () => {
    let release: () => void = () => undefined;
    const hanging = new Promise<void>((r) => {
      release = r;
    });
    let servedB = 0;
    const deliveries: Deliveries = {
      due: () => Promise.resolve([id(1), id(2)]),
      deliverNext: async (w) => {
        if (w === id(1)) {
          await hanging;
          return false;
        }
        servedB += 1;
        return servedB < 5;
      },
    };
    const worker = startWebhookWorker(deliveries, quietNews, recordingLogger(), 1000);
    // B made progress four times in a row (each step kicks the next) while A hangs, well within one poll.
    await until('webhook 2 to be served 5 times while webhook 1 hangs', () => servedB >= 5, 500);
    const stopping = worker.stop();
    let stopped = false;
    void stopping.then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(stopped, 'stop waits for the step in flight').to.equal(false);
    release();
    await stopping;
  });

  it('wakes for news without waiting for the poll', async () => {
    const feed = fakeFeed();
    const due: WebhookId[] = [];
    let served = 0;
    const deliveries: Deliveries = {
      due: () => Promise.resolve([...due]),
      deliverNext: () => {
        served += 1;
        due.length = 0;
        return Promise.resolve(true);
      },
    };
    const worker = startWebhookWorker(deliveries, feed.news, recordingLogger(), 60_000);
    await new Promise((r) => setTimeout(r, 30));
    expect(served).to.equal(0);
    const started = Date.now();
    due.push(id(7));
    feed.publish();
    await until('the delivery after the news', () => served === 1, 1000);
    expect(Date.now() - started).to.be.below(500);
    await worker.stop();
  });

  it('keeps up with a busy feed: one feed signal for the waits news ends, one listener on it at a time', async () => {
    // A feed that gets an event every millisecond or so, as a service under write load does.
    const feed = fakeFeed();
    let rounds = 0;
    const deliveries: Deliveries = {
      due: () => {
        rounds += 1;
        return Promise.resolve([]);
      },
      deliverNext: () => Promise.resolve(false),
    };
    const worker = startWebhookWorker(deliveries, feed.news, recordingLogger(), 60_000);
    for (let i = 0; i < 200; i++) {
      feed.publish();
      await new Promise((r) => setImmediate(r));
    }
    await until('the round after the last event', () => feed.waiting() === 1, 1000);
    expect(rounds, 'a round per event at most (and more than one)').to.be.within(2, 201);
    expect(feed.mostListeners(), 'one listener on the feed signal at a time').to.equal(1);
    expect(feed.signals.size, 'the same feed signal for waits that news ended').to.equal(1);
    await worker.stop();
    expect(feed.waiting(), 'stop ends the wait in flight').to.equal(0);
  });
});
