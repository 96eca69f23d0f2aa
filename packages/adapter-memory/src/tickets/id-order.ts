import { compareKeys, type SortField, type SortRule } from '@support/domain';
import type { SortKey } from './ticket-facts.js';

/**
 * Ids in the order `rules` (the domain's `compareTickets` on their tickets), each key read
 * once through `keyOf`: a numeric key costs no row read, a text key one per id.
 */
export const sortIds = (
  keyOf: (id: number, field: SortField) => SortKey,
  ids: readonly number[],
  rules: readonly SortRule[],
): number[] => {
  const keys = rules.map((r) => (r.field === 'id' ? null : ids.map((id) => keyOf(id, r.field))));
  const signs = rules.map((r) => (r.direction === 'asc' ? 1 : -1));
  const positions = ids.map((_, i) => i);
  positions.sort((a, b) => {
    for (const [r, column] of keys.entries()) {
      const c = column === null ? (ids[a] as number) - (ids[b] as number) : compareKeys(column[a] as SortKey, column[b] as SortKey);
      if (c !== 0) return c * (signs[r] as number);
    }
    return 0;
  });
  return positions.map((i) => ids[i] as number);
};
