import { SortedList } from '../sorted-list.js';

const ascending = (a: number, b: number): number => a - b;

/** The inverted index of search words: word -> the ids of the live tickets that have it. */
export class WordIndex {
  private readonly postings = new Map<string, SortedList<number>>();

  constructor(private readonly load: number) {}

  posting(word: string): SortedList<number> | undefined {
    return this.postings.get(word);
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
    let posting = this.postings.get(word);
    if (posting === undefined) {
      posting = new SortedList<number>(ascending, this.load);
      this.postings.set(word, posting);
    }
    posting.insert(id);
  }

  private remove(word: string, id: number): void {
    const posting = this.postings.get(word);
    if (posting === undefined) return;
    posting.remove(id);
    if (posting.size === 0) this.postings.delete(word);
  }
}
