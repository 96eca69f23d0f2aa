import { SortedList } from '../sorted-list.js';

const ascending = (a: number, b: number): number => a - b;

/**
 * The inverted index of search words: word -> the ids of the live tickets that have it.
 * A word of one ticket (a name, an order number: most words of a large store) keeps its id
 * alone rather than a list of one, so that they cost a map entry each and a start-up builds
 * no list for them.
 */
export class WordIndex {
  // Map: derived: an index of the tickets table, rebuilt by its restorer
  private readonly postings = new Map<string, SortedList<number> | number>();

  constructor(private readonly load: number) {}

  posting(word: string): SortedList<number> | undefined {
    const posting = this.postings.get(word);
    return typeof posting === 'number' ? this.listOf([posting]) : posting;
  }

  /** Moves an id from the postings of its old words to those of its new ones (each list without repeats, as `ticketWords` gives). */
  replace(id: number, oldWords: readonly string[], newWords: readonly string[]): void {
    if (oldWords.length === 0) {
      // A new ticket (and every ticket of a start-up): its words are distinct already.
      for (const w of newWords) this.add(w, id);
      return;
    }
    const keep = new Set(newWords);
    const had = new Set(oldWords);
    for (const w of had) if (!keep.has(w)) this.remove(w, id);
    for (const w of keep) if (!had.has(w)) this.add(w, id);
  }

  private add(word: string, id: number): void {
    const posting = this.postings.get(word);
    if (posting === undefined) this.postings.set(word, id);
    else if (typeof posting === 'number') this.postings.set(word, this.listOf([posting, id]));
    else posting.insert(id);
  }

  private remove(word: string, id: number): void {
    const posting = this.postings.get(word);
    if (posting === undefined) return;
    if (typeof posting === 'number') {
      if (posting === id) this.postings.delete(word);
      return;
    }
    posting.remove(id);
    const last = posting.size === 1 ? posting.first() : undefined;
    if (posting.size === 0) this.postings.delete(word);
    else if (last !== undefined) this.postings.set(word, last);
  }

  /** Packs every posting list into 4 bytes an id (SortedList.compact): a start's postings, built by appends, once every ticket is back. */
  compact(): void {
    for (const posting of this.postings.values()) if (typeof posting !== 'number') posting.compact();
  }

  private listOf(ids: readonly number[]): SortedList<number> {
    const list = new SortedList<number>(ascending, this.load);
    for (const id of ids) list.insert(id);
    return list;
  }
}
