/**
 * The Map lookups one call makes: the store keeps its tickets in a Map by id and reads one
 * entry per ticket it looks at, so this counts the tickets a search reads (plus a few index
 * lookups): its work, free of the machine's speed, caches and noise.
 */
export const countReads = async (run: () => Promise<unknown>): Promise<number> => {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, called with its map
  const get = Map.prototype.get;
  let n = 0;
  Map.prototype.get = function (this: Map<unknown, unknown>, key: unknown) {
    n += 1;
    return get.call(this, key) as unknown;
  };
  try {
    await run();
  } finally {
    Map.prototype.get = get;
  }
  return n;
};
