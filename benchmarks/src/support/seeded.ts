// Seeded randomness shared by the benchmarks, so every run builds the same data.

export interface Seeded {
  /** In [0, 1). */
  readonly rng: () => number;
  /** A whole number in [0, n). */
  readonly int: (n: number) => number;
  readonly pick: <T>(xs: readonly T[]) => T;
  /** Exponentially distributed around `mean`. */
  readonly exp: (mean: number) => number;
  /** Zipf (s = 1) over `vocabulary`: the first words are common, the last ones rare. */
  readonly zipfOver: <T>(vocabulary: readonly T[]) => () => T;
}

/** mulberry32: a small seeded generator, with the draws the benchmarks make from it. */
export const seeded = (seed: number): Seeded => {
  let a = seed;
  const rng = () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(rng() * n);
  const at = <T>(xs: readonly T[], i: number): T => {
    const x = xs[i];
    if (x === undefined) throw new Error(`no element ${i} among ${xs.length}`);
    return x;
  };
  const pick = <T>(xs: readonly T[]): T => at(xs, int(xs.length));
  const exp = (mean: number) => -Math.log(1 - rng()) * mean;
  const zipfOver = <T>(vocabulary: readonly T[]) => {
    const cumulative: number[] = [];
    let sum = 0;
    for (let r = 1; r <= vocabulary.length; r++) cumulative.push((sum += 1 / r));
    return () => {
      const x = rng() * sum;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (at(cumulative, mid) < x) lo = mid + 1;
        else hi = mid;
      }
      return at(vocabulary, lo);
    };
  };
  return { rng, int, pick, exp, zipfOver };
};

/** A word with its first letter in capitals. */
export const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** The words of a vocabulary written as a block of text. */
export const wordsOf = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '');

/** A help desk's words, the commonest first (subjects and bodies draw them Zipf-distributed: zipfOver). */
export const helpDeskVocabulary = wordsOf(`
  printer error login password email account cannot access invoice payment refund order
  shipping delivery broken slow crash update install screen network connection wifi vpn
  server timeout report export import file upload download sync calendar meeting phone
  mobile app browser page loading blank button missing data lost backup restore license
  key subscription renewal cancel upgrade plan billing charge card declined address change
  name profile settings notification alert spam blocked locked reset verify code token
  expired certificate warning disk space memory battery charger keyboard mouse monitor
  cable port usb bluetooth audio sound microphone camera video call quality laptop desktop
  tablet scanner jammed paper toner ink driver firmware version compatible windows macos
  linux android ios chrome firefox safari edge outlook teams zoom slack excel word pdf
  print share folder permission admin user group role access denied forbidden request
  please help urgent asap again still after since yesterday today morning every time`);
