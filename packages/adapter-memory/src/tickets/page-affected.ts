import {
  compareTickets,
  matchesTicket,
  ticketWords,
  type SortRule,
  type Ticket,
  type TicketFilter,
} from '@support/domain';
import type { Page } from '@support/application';

const noWords: ReadonlySet<string> = new Set();
// Map: transient: a pending version's words, while something holds the version
const wordsOf = new WeakMap<Ticket, ReadonlySet<string>>();
const words = (t: Ticket): ReadonlySet<string> => {
  let ws = wordsOf.get(t);
  if (ws === undefined) {
    ws = new Set(ticketWords(t));
    wordsOf.set(t, ws);
  }
  return ws;
};

const matches = (filter: TicketFilter, t: Ticket | undefined): boolean =>
  t !== undefined && matchesTicket(filter, t, filter.words.length === 0 ? noWords : words(t));

/**
 * Whether a search's answer (`page`, computed over memory) could differ if one ticket had any
 * other of `versions` (its durable one and those of its pending commits; undefined: no such
 * ticket), by the domain's reference rules (`matchesTicket`, `compareTickets`). It could not
 * when no version matches the filter (neither the page nor the total holds it), or when every
 * version matches (the total stays) and each sorts before the page's first ticket, or each
 * after its last (the page keeps its place and its tickets; a ticket on the page is neither).
 * Each unaffecting ticket leaves the count of matching tickets before, on and after the page as
 * it is, so any number of them together leave the answer as it is too: a search need wait only
 * for the pending commits of tickets that affect it (pending.ts).
 */
export const pageAffectedBy = (
  filter: TicketFilter,
  sort: readonly SortRule[],
  page: Page<Ticket>,
  versions: readonly (Ticket | undefined)[],
): boolean => {
  let matching = 0;
  for (const v of versions) if (matches(filter, v)) matching += 1;
  if (matching === 0) return false;
  if (matching < versions.length) return true;
  const first = page.items[0];
  const last = page.items[page.items.length - 1];
  // An empty page stays empty while the total stays.
  if (first === undefined || last === undefined) return false;
  const order = compareTickets(sort);
  const all = versions as readonly Ticket[];
  return !(all.every((v) => order(v, first) < 0) || all.every((v) => order(v, last) > 0));
};
