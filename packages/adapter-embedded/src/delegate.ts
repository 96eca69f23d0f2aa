type Methods = Record<string, ((...args: never[]) => unknown) | undefined>;

/**
 * An object with the methods of `shape`, each calling that method on whatever `current()`
 * answers at the time of the call (the store is started after the ports are handed out).
 * While `wait()` answers a promise, a call starts once it resolves, and is refused when it
 * rejects (after a failed commit, every call is).
 */
export const delegate = <T extends object>(shape: T, current: () => T, wait: () => Promise<void> | null): T => {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(shape)) {
    const call = (args: never[]): unknown => (current() as unknown as Methods)[name]?.(...args);
    out[name] = (...args: never[]) => {
      const waiting = wait();
      return waiting === null ? call(args) : waiting.then(() => call(args));
    };
  }
  return out as T;
};
