/**
 * Bitsets over ids reused by every search: a search runs in one synchronous call and uses
 * them only inside it. A million ids are 125 KB, which a new buffer per search would hand to
 * the garbage collector as external memory, search after search (the pauses that kept some
 * queue shapes' p99 high). Slots 0 and 1: an intersection's accumulator and its spare; slot 2:
 * a union of id sets (unionBits), read before the next one is made.
 */
const scratch: Uint32Array[] = [new Uint32Array(0), new Uint32Array(0), new Uint32Array(0)];

/** The first `words` words of a slot's buffer (grown when short), holding whatever was left in them. */
export const scratchBits = (slot: 0 | 1 | 2, words: number): Uint32Array => {
  let buffer = scratch[slot] as Uint32Array;
  if (buffer.length < words) {
    buffer = new Uint32Array(Math.max(words, 2 * buffer.length));
    scratch[slot] = buffer;
  }
  return buffer.subarray(0, words);
};
