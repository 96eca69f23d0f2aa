/**
 * Runs `wait` with a signal that aborts when `outer` does or after `ms`, and cleans up after
 * itself. (AbortSignal.any keeps every combined signal reachable from a long-lived `outer` on
 * Node 20 — nodejs/node#55351 — so a long poll built on it leaks a little per request.)
 */
export const withDeadline = async <T>(
  outer: AbortSignal,
  ms: number,
  wait: (signal: AbortSignal) => Promise<T>,
): Promise<T> => {
  const local = new AbortController();
  const stop = (): void => {
    local.abort();
  };
  const timer = setTimeout(stop, ms);
  outer.addEventListener('abort', stop, { once: true });
  if (outer.aborted) local.abort();
  try {
    return await wait(local.signal);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', stop);
  }
};
