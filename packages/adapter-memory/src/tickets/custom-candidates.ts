import type { CustomCondition, CustomScalar } from '@support/domain';
import { disjointUnion, ofIds, ofRanges, type Candidates } from './candidate-source.js';
import { compareSortKeys, type FieldIndex } from './field-index.js';
import { idSetsCandidates } from './queue-candidates.js';
import type { TicketTable } from './ticket-table.js';

// The candidates of custom field conditions (contract §10), each exact on its own like the
// others (candidates.ts), from the field's index (field-index.ts): a list of values is the
// union of their sets (checkbox, dropdown) or of their runs in the sorted list (the other
// types), `none` adds the unset tickets (disjoint from those with a value), a multiselect's
// ALL is one set per value, a range is one run of the sorted list.

const nothing: Candidates = ofIds([]);

const absentOf = (index: FieldIndex): Candidates => idSetsCandidates([index.absent]);

const valueRuns = (index: FieldIndex, values: readonly CustomScalar[]): Candidates => {
  const list = index.sorted;
  if (list === null || values.length === 0) return nothing;
  const keys = [...new Set(values.map((v) => index.keyOfValue(v)))];
  const ranges = keys.map((key) => {
    const probe = index.keyProbe(key);
    return [list.lowerBound(probe), list.upperBound(probe)] as const;
  });
  const wanted = new Set<number | string>(keys);
  return ofRanges(list, ranges, () => (id) => {
    const k = index.key(id);
    return k !== null && wanted.has(k);
  });
};

/** Tickets holding every one of `values` (a multiselect), ascending. */
const holdingAll = (index: FieldIndex, values: readonly CustomScalar[]): number[] => {
  const sets = values.map((v) => index.byValue?.get(v)).filter((s) => s !== undefined);
  if (sets.length < values.length || sets.length === 0) return [];
  const [smallest, ...others] = [...sets].sort((a, b) => a.size - b.size);
  const out: number[] = [];
  smallest?.forEachSlice((ids, from, to) => {
    for (let k = from; k < to; k++) {
      const id = ids[k] as number;
      if (others.every((s) => s.has(id))) out.push(id);
    }
  });
  return out.sort((a, b) => a - b);
};

const inCandidates = (index: FieldIndex, c: Extract<CustomCondition, { kind: 'in' }>): Candidates[] => {
  if (c.all) {
    if (c.values.length === 0) return [c.none ? absentOf(index) : nothing];
    const byValue = index.byValue;
    if (!c.none) return c.values.map((v) => (byValue === null ? nothing : idSetsCandidates([byValue.get(v)])));
    return [disjointUnion([ofIds(holdingAll(index, c.values)), absentOf(index)])];
  }
  // `none` alone is the unset set itself (a bitset: intersected 32 ids a step with the others).
  const withNone = (part: Candidates): Candidates => (c.none ? disjointUnion([part, absentOf(index)]) : part);
  if (index.byValue !== null) {
    const byValue = index.byValue;
    return [idSetsCandidates([...c.values.map((v) => byValue.get(v)), ...(c.none ? [index.absent] : [])])];
  }
  return [withNone(valueRuns(index, c.values))];
};

const rangeCandidates = (index: FieldIndex, c: Extract<CustomCondition, { kind: 'range' }>): Candidates => {
  const list = index.sorted;
  if (list === null) return nothing;
  const lo = c.gte === null ? null : index.keyOfValue(c.gte);
  const hi = c.lte === null ? null : index.keyOfValue(c.lte);
  // The sorted list holds only tickets with a value: no bound below is its start.
  const from = lo === null ? 0 : list.lowerBound(index.keyProbe(lo));
  const to = hi === null ? list.size : list.upperBound(index.keyProbe(hi));
  if (to <= from) return nothing;
  return ofRanges(list, [[from, to]], () => (id) => {
    const k = index.key(id);
    return k !== null && (lo === null || compareSortKeys(k, lo) >= 0) && (hi === null || compareSortKeys(k, hi) <= 0);
  });
};

/** One candidate set per custom condition (a field deleted since: only `none` matches, every ticket). */
export const customCandidates = (table: TicketTable, conditions: readonly CustomCondition[]): Candidates[] => {
  const out: Candidates[] = [];
  for (const c of conditions) {
    const index = table.field(c.fieldId);
    if (index === undefined) {
      if (c.kind === 'range' || !c.none) out.push(nothing);
      continue;
    }
    if (c.kind === 'range') out.push(rangeCandidates(index, c));
    else out.push(...inCandidates(index, c));
  }
  return out;
};

/** A search word found in the ticket's own words or in the values of these (text) fields. */
export const wordsCandidates = (table: TicketTable, word: string, fieldIds: readonly number[]): Candidates => {
  const postings = [table.words.posting(word), ...fieldIds.map((id) => table.field(id)?.words?.posting(word))].filter(
    (p) => p !== undefined && p.size > 0,
  );
  const [single] = postings;
  if (postings.length === 1 && single !== undefined) return ofRanges(single, [[0, single.size]], () => single.cursor());
  const ids = new Set<number>();
  for (const p of postings) for (const id of p?.values() ?? []) ids.add(id);
  return ofIds([...ids].sort((a, b) => a - b));
};
