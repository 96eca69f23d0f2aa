// Seeded randomness shared by the benchmarks, so every run builds the same data.

/** mulberry32: a small seeded generator, with the draws the benchmarks make from it. */
export const seeded = (seed) => {
  let a = seed;
  const rng = () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(rng() * n);
  const pick = (xs) => xs[int(xs.length)];
  const exp = (mean) => -Math.log(1 - rng()) * mean;
  /** Zipf (s = 1) over `vocabulary`: the first words are common, the last ones rare. */
  const zipfOver = (vocabulary) => {
    const cumulative = [];
    let sum = 0;
    for (let r = 1; r <= vocabulary.length; r++) cumulative.push((sum += 1 / r));
    return () => {
      const x = rng() * sum;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return vocabulary[lo];
    };
  };
  return { rng, int, pick, exp, zipfOver };
};
