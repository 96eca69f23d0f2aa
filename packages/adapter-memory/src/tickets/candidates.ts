import { stateRank, ticketStates, type TicketFilter } from '@support/domain';
import type { SortedList } from '../sorted-list.js';
import type { TicketTable } from './ticket-table.js';

/** Exactly the live tickets that satisfy one condition of a filter, with their number. */
export interface Candidates {
  readonly size: number;
  forEach(visit: (id: number) => void): void;
}

const ofSet = (ids: ReadonlySet<number>): Candidates => ({
  size: ids.size,
  forEach: (visit) => {
    for (const id of ids) visit(id);
  },
});

const ofRanges = (list: SortedList<number>, ranges: readonly (readonly [number, number])[]): Candidates => ({
  size: ranges.reduce((n, [lo, hi]) => n + hi - lo, 0),
  forEach: (visit) => {
    for (const [lo, hi] of ranges) {
      let left = hi - lo;
      if (left <= 0) continue;
      list.scan(lo, 1, (id) => {
        visit(id);
        return (left -= 1) > 0;
      });
    }
  },
});

const nothing: Candidates = { size: 0, forEach: () => undefined };

/** The candidates of every live ticket, in id order. */
export const everyLiveTicket = (table: TicketTable): Candidates => {
  const ids = table.order.list('id');
  return ofRanges(ids, [[0, ids.size]]);
};

const statesCandidates = (table: TicketTable, states: TicketFilter['states']): Candidates | null => {
  if (states === null) return null;
  const wanted = new Set(states);
  if (ticketStates.every((s) => wanted.has(s))) return null;
  const list = table.order.list('state');
  const ranges = [...wanted].map((s) => {
    const probe = table.order.keyProbe('state', stateRank(s));
    return [list.lowerBound(probe), list.upperBound(probe)] as const;
  });
  return ofRanges(list, ranges);
};

const closedSinceCandidates = (table: TicketTable, since: number | null): Candidates | null => {
  if (since === null) return null;
  // null sorts before every time, so the tickets closed at or after `since` are one tail.
  const list = table.order.list('closed_at');
  return ofRanges(list, [[list.lowerBound(table.order.keyProbe('closed_at', since)), list.size]]);
};

const wordCandidates = (table: TicketTable, word: string): Candidates => {
  const posting = table.words.posting(word);
  return posting === undefined ? nothing : ofRanges(posting, [[0, posting.size]]);
};

/**
 * One candidate set per condition of the filter (no list: every live ticket matches). Each is
 * exact on its own, so a ticket matches the filter when it is in every one of them.
 */
export const candidatesOf = (table: TicketTable, filter: TicketFilter): Candidates[] => {
  const out: Candidates[] = [];
  const states = statesCandidates(table, filter.states);
  if (states !== null) out.push(states);
  if (filter.customerId !== null) out.push(ofSet(table.liveByCustomer.get(filter.customerId)));
  for (const word of new Set(filter.words)) out.push(wordCandidates(table, word));
  const closed = closedSinceCandidates(table, filter.closedSince);
  if (closed !== null) out.push(closed);
  return out;
};
