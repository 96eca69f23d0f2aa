// The names of one JSON object as the scan (json-scan.ts) meets them, to find the first that
// repeats. Built for the worst body within 1 MiB, an object of ~120,000 names: a Set of
// strings would cut each name out of the text and hash it (~40 ms there); this table keeps
// each name's position in the text under a hash of its characters (open addressing over
// typed arrays: no allocation per name) and compares characters only when two hashes meet.

export const decodedName = (text: string, start: number, end: number, escaped: boolean): string =>
  escaped ? (JSON.parse(`"${text.slice(start, end)}"`) as string) : text.slice(start, end);

/** 32-bit FNV-1a of a string's UTF-16 code units. */
const fnv = (s: string, from: number, to: number): number => {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h | 0;
};

/**
 * A name in the text runs from `start` to `end` (exclusive, quotes excluded); `escaped`: it
 * holds a backslash escape, and is hashed and compared decoded, so that "a" and "\u0061" meet.
 */
const nameHash = (text: string, start: number, end: number, escaped: boolean): number => {
  if (!escaped) return fnv(text, start, end);
  const s = decodedName(text, start, end, true);
  return fnv(s, 0, s.length);
};

const sameName = (
  text: string,
  a: number,
  aEnd: number,
  aEscaped: boolean,
  b: number,
  bEnd: number,
  bEscaped: boolean,
): boolean => {
  if (aEscaped || bEscaped) return decodedName(text, a, aEnd, aEscaped) === decodedName(text, b, bEnd, bEscaped);
  const length = aEnd - a;
  if (length !== bEnd - b) return false;
  for (let k = 0; k < length; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
};

/** The names seen so far in one object. */
export class NameTable {
  private hashes = new Int32Array(16);
  /** Position of the name in `starts`/`ends` + 1; 0 is an empty slot. */
  private slots = new Int32Array(16);
  private starts: number[] = [];
  private ends: number[] = [];
  private escapes: boolean[] = [];

  constructor(private readonly text: string) {}

  /** Whether an equal name was added before; adds this one otherwise. */
  addOrFind(start: number, end: number, escaped: boolean): boolean {
    const hash = nameHash(this.text, start, end, escaped);
    if ((this.starts.length + 1) * 2 > this.slots.length) this.grow();
    const mask = this.slots.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const slot = this.slots[at] as number;
      if (slot === 0) {
        this.starts.push(start);
        this.ends.push(end);
        this.escapes.push(escaped);
        this.hashes[at] = hash;
        this.slots[at] = this.starts.length;
        return false;
      }
      if (this.hashes[at] === hash) {
        const n = slot - 1;
        const earlier = this.starts[n] as number;
        if (sameName(this.text, earlier, this.ends[n] as number, this.escapes[n] as boolean, start, end, escaped))
          return true;
      }
    }
  }

  private grow(): void {
    const size = this.slots.length * 2;
    const hashes = new Int32Array(size);
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let old = 0; old < this.slots.length; old++) {
      const slot = this.slots[old] as number;
      if (slot === 0) continue;
      const hash = this.hashes[old] as number;
      let at = hash & mask;
      while (slots[at] !== 0) at = (at + 1) & mask;
      hashes[at] = hash;
      slots[at] = slot;
    }
    this.hashes = hashes;
    this.slots = slots;
  }
}
