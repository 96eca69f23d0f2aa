/**
 * Runs a store operation synchronously and answers with a promise. Because nothing awaits
 * inside, each operation's check-and-write happens in one turn of the event loop: atomic for
 * every concurrent caller.
 */
export const answer = <T>(operation: () => T): Promise<T> => {
  try {
    return Promise.resolve(operation());
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
};
