/**
 * Runs `wait` with a signal that aborts when `outer` does or after `ms`, and cleans up after
 * itself. (AbortSignal.any keeps every combined signal reachable from a long-lived `outer` on
 * Node 20 — nodejs/node#55351 — so a long poll built on it leaks a little per request.)
 */
export declare const withDeadline: <T>(outer: AbortSignal, ms: number, wait: (signal: AbortSignal) => Promise<T>) => Promise<T>;
//# sourceMappingURL=deadline.d.ts.map