import { priorities, priorityRank, type TicketFilter } from '@support/domain';
import { ofRanges, type Candidates } from './candidate-source.js';
import { hasBit, type ReadonlyIdSet } from './id-set.js';
import { scratchBits } from './scratch-bits.js';
import type { TicketTable } from './ticket-table.js';

// The candidates of the queue conditions (contract §5, "Queue filters"), each exact on its own
// like the others in candidates.ts: a list of customers, assignees (or none), groups (or none)
// or priorities is the union of their id sets (a ticket has one of each, so the sets are
// disjoint and their sizes add up); each listed tag is one set (a ticket must carry all);
// updated_since is the tail of the updated_at index.

/**
 * The union of id sets as a bitset: a dense set's own (read only), else made in a buffer
 * that the next union overwrites (read it before asking for another; scratch-bits.ts).
 */
export const unionBits = (sets: readonly ReadonlyIdSet[]) => (): Uint32Array => {
  const [single] = sets.length === 1 ? sets : [];
  const own = single?.denseBits();
  if (own !== undefined && own !== null) return own;
  const words = (sets.reduce((r, s) => Math.max(r, s.reach()), 0) >>> 5) + 1;
  const out = scratchBits(2, words);
  out.fill(0);
  for (const s of sets) s.orInto(out);
  return out;
};

/** The union of disjoint id sets. */
export const idSetsCandidates = (sets: readonly ReadonlyIdSet[]): Candidates => {
  const members = sets.filter((s) => s.size > 0);
  const size = members.reduce((n, s) => n + s.size, 0);
  const [single] = members.length === 1 ? members : [];
  const test = (): ((id: number) => boolean) => {
    if (single !== undefined) {
      const bits = single.denseBits();
      return bits === null ? (id) => single.has(id) : (id) => hasBit(bits, id);
    }
    return (id) => {
      for (const s of members) if (s.has(id)) return true;
      return false;
    };
  };
  const bits = unionBits(members);
  return {
    size,
    forEachSlice: (visit) => {
      for (const s of members) s.forEachSlice(visit);
    },
    test,
    bits,
  };
};

/** The keys of a link condition in the sets by link (0: no link). */
const linkKeys = (c: { readonly ids: readonly number[]; readonly none: boolean }): number[] => [
  ...new Set(c.ids),
  ...(c.none ? [0] : []),
];

const updatedSinceCandidates = (table: TicketTable, since: number): Candidates => {
  const list = table.order.list('updatedAt');
  const from = list.lowerBound(table.order.keyProbe('updatedAt', since));
  const { facts } = table;
  return {
    ...ofRanges(list, [[from, list.size]], () => (id) => facts.updatedAt(id) >= since),
    outside: ofRanges(list, [[0, from]], () => () => false),
  };
};

/** One candidate set per queue condition of the filter (none: no queue condition). */
export const queueCandidates = (table: TicketTable, filter: TicketFilter): Candidates[] => {
  const out: Candidates[] = [];
  if (filter.customerIds !== null)
    out.push(idSetsCandidates([...new Set(filter.customerIds)].map((id) => table.liveByCustomer.get(id))));
  if (filter.assignees !== null)
    out.push(idSetsCandidates(linkKeys(filter.assignees).map((k) => table.liveByAssignee.get(k))));
  if (filter.groups !== null) out.push(idSetsCandidates(linkKeys(filter.groups).map((k) => table.liveByGroup.get(k))));
  if (filter.priorities !== null) {
    const ranks = new Set(filter.priorities.map(priorityRank));
    if (ranks.size < priorities.length) out.push(idSetsCandidates([...ranks].map((r) => table.liveByPriority.get(r))));
  }
  for (const tag of new Set(filter.tags)) out.push(idSetsCandidates([table.liveByTag.get(tag)]));
  if (filter.updatedSince !== null) out.push(updatedSinceCandidates(table, filter.updatedSince));
  return out;
};
