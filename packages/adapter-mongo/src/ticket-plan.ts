import { sortFieldId, type SortField, type SortRule, type TicketFilter } from '@support/domain';
import type { Document } from 'mongodb';
import { ticketIndexName, type TicketIndexFamily } from './indexes.js';
import { sortFieldPaths, ticketFilterToMongo, type TicketSortPath } from './ticket-query.js';

// Every query a ticket search sends, built here and nowhere else, each with the index it
// must use (a hint: the planner never gets to pick a plan with an in-memory SORT stage).
//
// A search walks the index of its first sort rule (`{prefix, deleted, f, _id}`, read forwards
// or backwards) and stops at the page. Rules after the first only order the runs of tickets
// whose first key is equal ("tie runs"), as the memory store does: a run is read by adding
// `f = value` to the filter, which turns the same index into an equality prefix followed by
// `_id` (so the id tie-breaker in either direction is an index order), and a run's later
// rules are applied by sorting the run's keys in the adapter when it is short, or by walking
// the next rule's index inside the run when it is long. No combination of rules needs an
// index of its own: every order of contract §5 (any sequence of distinct rules, each in either
// direction, the id tie-breaker either way) is served by the 3 × 7 sort indexes.
//
// A filter with conditions may also be answered by reading the sort keys of every match
// through the filter's own index and sorting them in the adapter, when the matches are few
// and the walk would have to look far for them (see ticket-search.ts).

/** A query with the index it is to use. */
export interface PlannedQuery {
  readonly filter: Document;
  readonly hint: string;
  /** Absent: an unordered read (keys to sort in the adapter, or a count). */
  readonly sort?: Readonly<Record<string, 1 | -1>>;
}

/** `f = value` conditions of the tie runs being read, outermost first. */
export type RunKeys = Readonly<Partial<Record<TicketSortPath, unknown>>>;

/**
 * The index family a filter's equalities select, the narrowest kind first: a customer's
 * tickets (their own list, or customer_id), else an assignee's queue, else a group's, else a
 * state list, else every live ticket (docs/queue-filters.md weighs the choice).
 */
export const familyOf = (filter: TicketFilter): TicketIndexFamily =>
  filter.customerId !== null || filter.customerIds !== null
    ? 'customer'
    : filter.assignees !== null
      ? 'assignee'
      : filter.groups !== null
        ? 'group'
        : filter.states !== null
          ? 'state'
          : 'live';

/** For an unordered read (a count, the matches' keys): the indexed field a range or a priority list bounds, if any. */
const boundedPath = (filter: TicketFilter): TicketSortPath =>
  filter.updatedSince !== null
    ? 'updatedAt'
    : filter.closedSince !== null
      ? 'closedAt'
      : filter.priorities !== null
        ? 'priorityRank'
        : '_id';

/**
 * The index that serves `filter` in the order of `path` (null: in no order). Search words
 * and tags have their own multikey indexes, in created_at order (the default order of a
 * list); the index of a customer, an assignee or a group is preferred to them (its tickets
 * are one queue). In no order, the family's index on a bounded field (updated_since,
 * closed_at, priority) reads only the range.
 */
export const ticketIndexFor = (filter: TicketFilter, path: TicketSortPath | null): string => {
  const family = familyOf(filter);
  const broad = family === 'state' || family === 'live';
  // A custom field condition with a value: its entries in the one `cf` index (contract §10).
  if (broad && path === null && (filter.custom ?? []).some(boundsCf)) return ticketIndexName.custom;
  if (broad && (path === null || path === 'createdAt')) {
    if (filter.words.length > 0) return ticketIndexName.words;
    if (filter.tags.length > 0) return ticketIndexName.tags;
  }
  return ticketIndexName.sorted(family, path ?? boundedPath(filter));
};

/** Whether a condition bounds the `cf` index (a value or a range of its field; `none` alone does not). */
const boundsCf = (c: NonNullable<TicketFilter['custom']>[number]): boolean =>
  c.kind === 'range' || (!c.none && c.values.length > 0);

const filterWith = (filter: TicketFilter, runs: RunKeys): Document => ({ ...ticketFilterToMongo(filter), ...runs });

/** Whether a rule sorts by a custom field: such a search sorts the matches' keys in the adapter (ticket-search.ts). */
export const isCustomRule = (rule: SortRule): boolean => sortFieldId(rule.field) !== null;

const pathOf = (rule: SortRule): TicketSortPath => {
  if (isCustomRule(rule)) throw new Error(`no index walk sorts by the custom field ${rule.field}`);
  return sortFieldPaths[rule.field as SortField];
};
const sign = (rule: SortRule): 1 | -1 => (rule.direction === 'asc' ? 1 : -1);

/** How many tickets match (the total of every page). */
export const countQuery = (filter: TicketFilter, runs: RunKeys = {}): PlannedQuery => ({
  filter: filterWith(filter, runs),
  hint: ticketIndexFor(filter, null),
});

/** The sort keys of every match, unordered: sorted in the adapter when the matches are few. */
export const matchesQuery = (filter: TicketFilter, runs: RunKeys = {}): PlannedQuery => ({
  filter: filterWith(filter, runs),
  hint: ticketIndexFor(filter, null),
});

/** The walk of one rule's index, ties by `_id` in the same direction (the index's own order). */
export const walkQuery = (filter: TicketFilter, runs: RunKeys, rule: SortRule): PlannedQuery => {
  const path = pathOf(rule);
  return {
    filter: filterWith(filter, runs),
    hint: ticketIndexFor(filter, path),
    sort: path === '_id' ? { _id: sign(rule) } : { [path]: sign(rule), _id: sign(rule) },
  };
};

/** The members of the run `rule's field = value`: counted, or read unordered to be sorted in the adapter. */
export const runQuery = (filter: TicketFilter, runs: RunKeys, rule: SortRule, value: unknown): PlannedQuery => {
  const path = pathOf(rule);
  return { filter: filterWith(filter, { ...runs, [path]: value }), hint: ticketIndexFor(filter, path) };
};

/** The run's members by `_id` in `idDirection`: one index order whatever the rule's direction. */
export const runByIdQuery = (
  filter: TicketFilter,
  runs: RunKeys,
  rule: SortRule,
  value: unknown,
  idDirection: SortRule['direction'],
): PlannedQuery => ({
  ...runQuery(filter, runs, rule, value),
  sort: { _id: idDirection === 'asc' ? 1 : -1 },
});

/** The run's members that the walk of `rule` passes before the ticket `id` (ties walk by `_id` in the rule's direction). */
export const runBeforeQuery = (
  filter: TicketFilter,
  runs: RunKeys,
  rule: SortRule,
  value: unknown,
  id: number,
): PlannedQuery => {
  const q = runQuery(filter, runs, rule, value);
  return { ...q, filter: { ...q.filter, _id: rule.direction === 'asc' ? { $lt: id } : { $gt: id } } };
};

/** Whether only the id tie-breaker follows `rule`, in the same direction: the walk alone is the order. */
export const walkIsTheOrder = (rules: readonly SortRule[]): boolean => {
  const [first, next, ...more] = rules;
  return (
    first === undefined ||
    first.field === 'id' ||
    next === undefined ||
    (next.field === 'id' && next.direction === first.direction && more.length === 0)
  );
};

/** A stand-in value for a run of each field, for listing queries (only which fields are bound matters to an index). */
const sampleRunValue: Readonly<Record<TicketSortPath, unknown>> = {
  _id: 1,
  subject: 'x',
  stateRank: 0,
  priorityRank: 0,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  closedAt: null,
};

/**
 * Every query a search with this filter and complete sort can send, whatever the data: the
 * count, the read of every match, and for each level of tie runs the walk, the run counts
 * and reads. The coverage test checks each against the declared indexes; the real-mongod
 * suite asks the server to explain each.
 */
export const plannedQueries = (filter: TicketFilter, rules: readonly SortRule[]): PlannedQuery[] => {
  const out: PlannedQuery[] = [countQuery(filter), matchesQuery(filter)];
  let runs: RunKeys = {};
  for (let level = 0; level < rules.length; level++) {
    const [rule, ...rest] = rules.slice(level);
    if (rule === undefined) break;
    out.push(...levelQueries(filter, runs, rule, rest));
    // Past this level: nothing (the walk is the order, or only the id is left: read by index order).
    if (walkIsTheOrder([rule, ...rest]) || rest.length <= 1) break;
    runs = { ...runs, [pathOf(rule)]: sampleRunValue[pathOf(rule)] };
  }
  return out;
};

/** The queries of one level: the walk of `rule`, and, unless the walk is the order, its runs. */
export const levelQueries = (
  filter: TicketFilter,
  runs: RunKeys,
  rule: SortRule,
  rest: readonly SortRule[],
): PlannedQuery[] => {
  const walk = walkQuery(filter, runs, rule);
  if (walkIsTheOrder([rule, ...rest])) return [walk];
  const value = sampleRunValue[pathOf(rule)];
  const [next] = rest;
  const runQueries = [runQuery(filter, runs, rule, value), runBeforeQuery(filter, runs, rule, value, 1)];
  if (rest.length === 1 && next !== undefined) runQueries.push(runByIdQuery(filter, runs, rule, value, next.direction));
  return [walk, ...runQueries];
};
