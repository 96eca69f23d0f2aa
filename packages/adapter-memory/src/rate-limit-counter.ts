import type { RateLimitCounter } from '@support/application';
import { answer } from './answer.js';
import { ExpiryQueue } from './expiry-queue.js';

interface Window {
  end: number;
  readonly counts: Map<string, number>;
}

/**
 * Fixed-window counters, grouped by window start (every key shares the same windows). A hit
 * for a window starting at t shows that t has come, so every window that ended a window's
 * length before t is forgotten then: memory holds the windows still running and the ones just
 * before them (the port lets the previous window be read).
 */
export const memoryRateLimitCounter = (load: number): RateLimitCounter => {
  // Map: transient: rate-limit windows are per process by design, never stored
  const windows = new Map<number, Window>();
  const ends = new ExpiryQueue<number>(load);
  let latestStart = Number.NEGATIVE_INFINITY;
  return {
    hit: (key, windowStart, windowMs) =>
      answer(() => {
        if (windowStart > latestStart) {
          latestStart = windowStart;
          for (const start of ends.takeDue(windowStart)) windows.delete(start);
        }
        let window = windows.get(windowStart);
        if (window === undefined) {
          // Map: transient: as above
          window = { end: windowStart + windowMs, counts: new Map() };
          windows.set(windowStart, window);
          ends.set(windowStart, window.end + windowMs);
        } else if (windowStart + windowMs > window.end) {
          window.end = windowStart + windowMs;
          ends.set(windowStart, window.end + windowMs);
        }
        const count = (window.counts.get(key) ?? 0) + 1;
        window.counts.set(key, count);
        return count;
      }),
    count: (key, windowStart) => answer(() => windows.get(windowStart)?.counts.get(key) ?? 0),
  };
};
