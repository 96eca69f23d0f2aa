type Methods = Record<string, ((...args: never[]) => unknown) | undefined>;

/**
 * An object with the methods of `shape`, each calling that method on whatever `current()`
 * answers at the time of the call: the ports stay the same objects for the application
 * while the store behind them is rebuilt (after a failed commit).
 */
export const delegate = <T extends object>(shape: T, current: () => T): T => {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(shape)) {
    out[name] = (...args: never[]) => (current() as unknown as Methods)[name]?.(...args);
  }
  return out as T;
};
