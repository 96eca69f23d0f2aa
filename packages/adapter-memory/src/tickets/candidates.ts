import { stateRank, ticketStates, type TicketFilter } from '@support/domain';
import { memberTest, ofRanges, type Candidates } from './candidate-source.js';
import { customCandidates, wordsCandidates } from './custom-candidates.js';
import { countBits, forEachBitSlice, hasBit } from './id-set.js';
import { idSetsCandidates, queueCandidates, unionBits } from './queue-candidates.js';
import { scratchBits } from './scratch-bits.js';
import type { TicketTable } from './ticket-table.js';

export { memberTest, ofRanges, type Candidates } from './candidate-source.js';

/** Every id of a candidate set, in its order. */
export const idsOf = (source: Candidates): number[] => {
  const out: number[] = [];
  source.forEachSlice((values, start, end) => {
    for (let k = start; k < end; k++) out.push(values[k] as number);
  });
  return out;
};

const nothing: Candidates = { size: 0, forEachSlice: () => undefined, test: () => () => false };

/** The candidates of every live ticket, in id order. */
export const everyLiveTicket = (table: TicketTable): Candidates => {
  const ids = table.order.list('id');
  return ofRanges(ids, [[0, ids.size]], () => () => true);
};

const statesCandidates = (table: TicketTable, states: TicketFilter['states']): Candidates | null => {
  if (states === null) return null;
  const wanted = new Set(states);
  if (ticketStates.every((s) => wanted.has(s))) return null;
  const list = table.order.list('state');
  const ranks = [...wanted].map(stateRank);
  // Each state's entries are one run of the state index, in id order.
  const ranges = ranks.map((rank) => {
    const probe = table.order.keyProbe('state', rank);
    return [list.lowerBound(probe), list.upperBound(probe)] as const;
  });
  const accepted = ticketStates.map((_, rank) => ranks.includes(rank));
  const { facts } = table;
  return {
    ...ofRanges(list, ranges, () => (id) => accepted[facts.stateRank(id)] === true),
    bits: unionBits(ranks.map((r) => table.liveByState.get(r))),
  };
};

const closedSinceCandidates = (table: TicketTable, since: number | null): Candidates | null => {
  if (since === null) return null;
  // null sorts before every time, so the tickets closed at or after `since` are one tail.
  const list = table.order.list('closedAt');
  const { facts } = table;
  const from = list.lowerBound(table.order.keyProbe('closedAt', since));
  // A ticket that is not closed has NaN, which is not >= anything.
  return {
    ...ofRanges(list, [[from, list.size]], () => (id) => facts.closedAt(id) >= since),
    outside: ofRanges(list, [[0, from]], () => () => false),
  };
};

const wordCandidates = (table: TicketTable, word: string): Candidates => {
  const posting = table.words.posting(word);
  return posting === undefined ? nothing : ofRanges(posting, [[0, posting.size]], () => posting.cursor());
};

/**
 * One candidate set per condition of the filter (no list: every live ticket matches). Each is
 * exact on its own, so a ticket matches the filter when it is in every one of them.
 */
export const candidatesOf = (table: TicketTable, filter: TicketFilter): Candidates[] => {
  const out: Candidates[] = [];
  const states = statesCandidates(table, filter.states);
  if (states !== null) out.push(states);
  if (filter.customerId !== null) out.push(idSetsCandidates([table.liveByCustomer.get(filter.customerId)]));
  for (const word of new Set(filter.words))
    out.push(
      (filter.searchFields ?? []).length === 0
        ? wordCandidates(table, word)
        : wordsCandidates(table, word, filter.searchFields ?? []),
    );
  const closed = closedSinceCandidates(table, filter.closedSince);
  if (closed !== null) out.push(closed);
  out.push(...queueCandidates(table, filter), ...customCandidates(table, filter.custom ?? []));
  return out;
};

/** The tickets in every one of several candidate sets: how many, a test, and their ids. */
export interface Matches {
  readonly count: number;
  /** A membership test, valid until the table changes. */
  test(): (id: number) => boolean;
  /** The ids (ascending when made from bitsets). */
  ids(): number[];
  /** Offers every id to `sink` (a FirstIds window), making no array of them. */
  offerEach(sink: IdSink): void;
}

/** What takes ids one at a time (id-order.ts's FirstIds). */
export interface IdSink {
  offer(id: number): void;
}

/**
 * The ids in every one of several candidate sets, without reading a row. When the smallest
 * set is small, it is visited and each id tested against the others, smallest first (the
 * likeliest to reject): about the smallest set's size in cheap steps (a word's posting is
 * merged by galloping, k·log(size / k)). When every set is large and some are kept as
 * bitsets (id-set.ts), those are ANDed 32 ids a step and the others (a word's posting, a time
 * range, or the ids outside a wide range) cleared from the result: a pass over the id space
 * in words, whatever the number of matches, instead of a test per id of the smallest set.
 */
export const intersection = (sources: readonly Candidates[], live: number): Matches => {
  const sorted = [...sources].sort((a, b) => a.size - b.size);
  const [driver] = sorted;
  // live 0: always by bitsets when some set has them (tests).
  const large = live === 0 || (driver !== undefined && driver.size > Math.max(4096, live / 128));
  if (large && sorted.some((c) => c.bits !== undefined)) return bitsetIntersection(sorted);
  return new IdListMatches(driverIntersection(sorted));
};

// The two kinds of matches are classes rather than object literals of closures made per search:
// see FirstIds (id-order.ts) on V8 dropping such closures' optimised code at a full GC.

/** Matches as a list of ids (in the driver's order). */
class IdListMatches implements Matches {
  constructor(private readonly list: number[]) {}

  get count(): number {
    return this.list.length;
  }

  test(): (id: number) => boolean {
    return memberTest(this.list);
  }

  ids(): number[] {
    return this.list;
  }

  offerEach(sink: IdSink): void {
    const { list } = this;
    for (let k = 0; k < list.length; k++) sink.offer(list[k] as number);
  }
}

/** Matches as a bitset over ids (a scratch buffer: valid within the search). */
class BitsetMatches implements Matches {
  readonly count: number;

  constructor(private readonly bits: Uint32Array) {
    this.count = countBits(bits);
  }

  test(): (id: number) => boolean {
    const { bits } = this;
    return (id) => hasBit(bits, id);
  }

  ids(): number[] {
    const out: number[] = [];
    forEachBitSlice(this.bits, (values, start, end) => {
      for (let k = start; k < end; k++) out.push(values[k] as number);
    });
    return out;
  }

  offerEach(sink: IdSink): void {
    const { bits } = this;
    for (let w = 0; w < bits.length; w++) {
      let x = bits[w] as number;
      while (x !== 0) {
        const low = x & -x;
        sink.offer(w * 32 + 31 - Math.clz32(low));
        x ^= low;
      }
    }
  }
}

const driverIntersection = (sorted: readonly Candidates[]): number[] => {
  const [driver, ...others] = sorted;
  if (driver === undefined || driver.size === 0) return [];
  const kept = new Kept(others.map((c) => c.test()));
  // A closure per search that only forwards a stretch: the loop over its ids is Kept's method.
  driver.forEachSlice((values, start, end) => {
    kept.take(values, start, end);
  });
  return kept.ids;
};

/** The ids of stretches that pass every test (driverIntersection; a class for the reason FirstIds is one). */
class Kept {
  readonly ids: number[] = [];

  constructor(private readonly tests: readonly ((id: number) => boolean)[]) {}

  take(values: ArrayLike<number>, start: number, end: number): void {
    const { tests, ids } = this;
    const [only] = tests;
    if (tests.length === 1 && only !== undefined) {
      for (let k = start; k < end; k++) {
        const id = values[k] as number;
        if (only(id)) ids.push(id);
      }
      return;
    }
    next: for (let k = start; k < end; k++) {
      const id = values[k] as number;
      for (const test of tests) if (!test(id)) continue next;
      ids.push(id);
    }
  }
}

const bitsetIntersection = (sorted: readonly Candidates[]): Matches => {
  let acc: Uint32Array | null = null;
  for (const c of sorted) {
    if (c.bits === undefined) continue;
    const bits = c.bits();
    if (acc === null) {
      acc = scratchBits(0, bits.length);
      acc.set(bits);
    } else {
      const n = Math.min(acc.length, bits.length);
      for (let w = 0; w < n; w++) acc[w] = ((acc[w] as number) & (bits[w] as number)) >>> 0;
      acc.fill(0, n);
    }
  }
  let result = acc ?? new Uint32Array(0);
  let spare: 0 | 1 = 1;
  for (const c of sorted) {
    if (c.bits !== undefined) continue;
    const next = restrict(result, c, spare);
    if (next !== result) spare = spare === 1 ? 0 : 1;
    result = next;
  }
  return new BitsetMatches(result);
};

/** The bits of `acc` that are also in `c`: by clearing the ids outside c when fewer, else by copying those in it. */
const restrict = (acc: Uint32Array, c: Candidates, spare: 0 | 1): Uint32Array => {
  const { outside } = c;
  // Closures per search that only forward a stretch: the loops over its ids are module functions.
  if (outside !== undefined && outside.size < c.size) {
    outside.forEachSlice((values, start, end) => {
      clearBits(acc, values, start, end);
    });
    return acc;
  }
  const out = scratchBits(spare, acc.length);
  out.fill(0);
  c.forEachSlice((values, start, end) => {
    copyBits(acc, out, values, start, end);
  });
  return out;
};

/** Clears the bits of `values[start..end)` in `acc`. */
const clearBits = (acc: Uint32Array, values: ArrayLike<number>, start: number, end: number): void => {
  for (let k = start; k < end; k++) {
    const id = values[k] as number;
    const w = id >>> 5;
    if (w < acc.length) acc[w] = ((acc[w] as number) & ~(1 << (id & 31))) >>> 0;
  }
};

/** Sets in `out` the bits of `values[start..end)` that are set in `acc`. */
const copyBits = (acc: Uint32Array, out: Uint32Array, values: ArrayLike<number>, start: number, end: number): void => {
  for (let k = start; k < end; k++) {
    const id = values[k] as number;
    const w = id >>> 5;
    if (w < acc.length && (((acc[w] as number) >>> (id & 31)) & 1) === 1)
      out[w] = ((out[w] as number) | (1 << (id & 31))) >>> 0;
  }
};
