import * as E from 'fp-ts/lib/Either.js';
import type { QueryIssue } from '../errors.js';
import type { CompleteSort, CustomFilter, SortRule, TicketQuery } from '../query/ticket-query.js';
import type { TicketFieldDefinition } from './definition.js';
import { customConditions, customSortField, customSortRefusal, searchedFieldIds } from './query.js';

// A ticket list's custom field parts (contract §10) resolved against the definitions the
// caller sees: `cf.<key>` filters into conditions by field id, `sort=cf.<key>` into the id's
// sort field, `fields=cf.<key>` checked. An unknown key or a malformed value is an issue (400).

export interface ResolvedCustomQuery {
  readonly filter: CustomFilter;
  readonly sort: CompleteSort;
}

export const unknownFieldKey = (key: string): string => `no ticket field "${key}" (GET /v1/ticket_fields lists them)`;

/** The keys `fields=cf.<key>` names that are no field of these. */
export const unknownKeys = (defs: readonly TicketFieldDefinition[], keys: readonly string[]): QueryIssue[] =>
  keys
    .filter((k) => !defs.some((d) => d.key === k))
    .map((k) => ({ parameter: 'fields', value: `cf.${k}`, message: unknownFieldKey(k) }));

export const resolveCustomQuery = (
  defs: readonly TicketFieldDefinition[],
  query: Pick<TicketQuery, 'custom' | 'customKeys' | 'sort'>,
): E.Either<QueryIssue[], ResolvedCustomQuery> => {
  const issues: QueryIssue[] = [];
  const conditions = customConditions(defs, query.custom);
  if (E.isLeft(conditions)) issues.push(...conditions.left);
  const sort: SortRule[] = [];
  for (const rule of query.sort) {
    if (!rule.field.startsWith('cf.')) {
      sort.push(rule);
      continue;
    }
    const key = rule.field.slice(3);
    const def = defs.find((d) => d.key === key);
    const refusal = def === undefined ? unknownFieldKey(key) : customSortRefusal(def);
    const value = `${rule.direction === 'desc' ? '-' : ''}${rule.field}`;
    if (refusal !== null || def === undefined) issues.push({ parameter: 'sort', value, message: refusal ?? '' });
    else sort.push({ field: customSortField(def.id), direction: rule.direction });
  }
  issues.push(...unknownKeys(defs, query.customKeys));
  if (issues.length > 0 || E.isLeft(conditions)) return E.left(issues);
  return E.right({
    filter: { custom: conditions.right, searchFields: searchedFieldIds(defs) },
    // One rule for one: the order stays complete (its id tie-breaker is kept).
    sort: sort as readonly SortRule[] as CompleteSort,
  });
};
