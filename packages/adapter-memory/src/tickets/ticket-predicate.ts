import { matchesTicket, type Ticket, type TicketFilter } from '@support/domain';
import type { WordIndex } from './word-index.js';

const noWords: ReadonlySet<string> = new Set();

/**
 * The domain's `matchesTicket`, with the words looked up in the word index (whose postings
 * are the domain's `ticketWords` of each live ticket) instead of tokenizing every ticket again.
 */
export const ticketPredicate = (filter: TicketFilter, words: WordIndex): ((t: Ticket) => boolean) => {
  const rest: TicketFilter = { ...filter, words: [] };
  const postings = [...new Set(filter.words)].map((w) => words.posting(w));
  return (t) => matchesTicket(rest, t, noWords) && postings.every((p) => p?.has(t.id) === true);
};
