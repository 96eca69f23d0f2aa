import {
  pageBounds,
  priorityRank,
  type CustomCondition,
  type LinkCondition,
  type SortField,
  type TicketFilter,
  type TicketState,
} from '@support/domain';
import type { TicketDocument } from './documents.js';

// The translation of the domain's ticket filter into a MongoDB filter document, the fields
// each sort rule orders by, and paging. Pure, so the exact documents are unit-tested and
// their meaning is cross-checked against the domain's reference `matchesTicket`. The
// queries of a search, with their sorts and indexes, are built in ticket-plan.ts.

/** The document field each sort field orders by: ranks for state and priority, `_id` for id. */
export const sortFieldPaths = {
  id: '_id',
  subject: 'subject',
  state: 'stateRank',
  priority: 'priorityRank',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  closedAt: 'closedAt',
} as const satisfies Record<SortField, keyof TicketDocument>;

export type TicketSortPath = (typeof sortFieldPaths)[SortField];

/** One value, or any of several (null: no link). */
type OneOrAny<V> = V | { $in: V[] };

export type MongoTicketFilter = {
  deleted: false;
  state?: { $in: TicketState[] };
  customerId?: OneOrAny<number>;
  assignedUserId?: OneOrAny<number | null>;
  groupId?: OneOrAny<number | null>;
  priorityRank?: { $in: number[] };
  tags?: { $all: string[] };
  words?: { $all: string[] };
  closedAt?: { $gte: Date };
  updatedAt?: { $gte: Date };
  /** Custom field conditions (and search words that may be those of custom fields), each a member. */
  $and?: Document[];
};

type Document = Record<string, unknown>;

/** A value of field `k` (in the attribute entries `cf`) that satisfies `v`. */
const holds = (k: number, v: unknown): Document => ({ cf: { $elemMatch: { k, v } } });

/** No value of field `k`: no attribute entry names it (a missing `cf` too). */
const unset = (k: number): Document => ({ 'cf.k': { $ne: k } });

/**
 * A custom field condition (contract §10) as MongoDB reads it, over the one `cf` index: the
 * members of the filter's `$and` (a multiselect's ALL: one `$elemMatch` per value, each a
 * bound of the index).
 */
export const customConditionToMongo = (c: CustomCondition): Document[] => {
  if (c.kind === 'range') {
    const v: Document = {};
    if (c.gte !== null) v['$gte'] = c.gte;
    if (c.lte !== null) v['$lte'] = c.lte;
    return [holds(c.fieldId, Object.keys(v).length === 0 ? { $exists: true } : v)];
  }
  const values = [...c.values];
  const held: Document[] =
    values.length === 0
      ? []
      : c.all
        ? values.map((v) => holds(c.fieldId, v))
        : [holds(c.fieldId, values.length === 1 ? values[0] : { $in: values })];
  if (!c.none) return held.length > 0 ? held : [{ _id: { $in: [] } }];
  if (held.length === 0) return [unset(c.fieldId)];
  return [{ $or: [held.length === 1 ? held[0] : { $and: held }, unset(c.fieldId)] }];
};

/** A single value as an equality (an index point MongoDB's planner and index-rules.ts read as such), else `$in`. */
const oneOrAny = <V>(values: readonly V[]): OneOrAny<V> =>
  values.length === 1 ? (values[0] as V) : { $in: [...values] };

const linkValues = (c: LinkCondition<number>): (number | null)[] => [...new Set(c.ids), ...(c.none ? [null] : [])];

/** The customers a filter allows: its customer (a customer's own list) and its customer_id list, both. */
const customerValues = (filter: TicketFilter): number[] | null => {
  if (filter.customerIds === null) return filter.customerId === null ? null : [filter.customerId];
  const listed = [...new Set(filter.customerIds)];
  return filter.customerId === null ? listed : listed.filter((id) => id === filter.customerId);
};

/**
 * The filter selecting exactly the tickets `matchesTicket` selects. Clauses appear only
 * for the parts of the filter that are set: `$all: []` would match nothing in MongoDB,
 * where the domain's empty word (or tag) list matches everything. An empty list (states,
 * customers, assignees, groups, priorities) stays `$in: []`, which matches nothing, as in the
 * domain.
 */
export const ticketFilterToMongo = (filter: TicketFilter): MongoTicketFilter => {
  const query: MongoTicketFilter = { deleted: false };
  if (filter.states !== null) query.state = { $in: [...filter.states] };
  const customers = customerValues(filter);
  if (customers !== null) query.customerId = oneOrAny(customers);
  // `{f: null}` and `$in: [null]` match a null link (and a missing field, which no ticket has).
  if (filter.assignees !== null) query.assignedUserId = oneOrAny(linkValues(filter.assignees));
  if (filter.groups !== null) query.groupId = oneOrAny(linkValues(filter.groups));
  // By rank, so that the sort indexes on priorityRank bound it (a priority sort, a count).
  if (filter.priorities !== null) query.priorityRank = { $in: [...new Set(filter.priorities.map(priorityRank))] };
  if (filter.tags.length > 0) query.tags = { $all: [...new Set(filter.tags)] };
  const searched = filter.searchFields ?? [];
  const and: Document[] = [];
  if (filter.words.length > 0) {
    // A word of the ticket's own, or `<field id>:<word>` of a text custom field (documents.ts).
    if (searched.length === 0) query.words = { $all: [...filter.words] };
    else for (const w of filter.words) and.push({ words: { $in: [w, ...searched.map((f) => `${f}:${w}`)] } });
  }
  for (const c of filter.custom ?? []) and.push(...customConditionToMongo(c));
  if (and.length > 0) query.$and = and;
  // `$gte` on a Date never matches null: a ticket without closed_at is not recently closed.
  if (filter.closedSince !== null) query.closedAt = { $gte: new Date(filter.closedSince) };
  if (filter.updatedSince !== null) query.updatedAt = { $gte: new Date(filter.updatedSince) };
  return query;
};

/**
 * A page of a list: counted first, then read only when it holds something (a page past the
 * end reads nothing). The count and the page are two reads: a write between them can make
 * the total and the page disagree by that write (see `MongoContext.readTogether`).
 */
export const countedPage = async <T>(
  offset: number,
  limit: number,
  count: () => Promise<number>,
  read: (window: { skip: number; limit: number }) => Promise<T[]>,
): Promise<{ items: T[]; total: number }> => {
  const window = pageWindow(offset, limit);
  const total = await count();
  return { items: window === null || window.skip >= total ? [] : await read(window), total };
};

/**
 * skip/limit of a page; a limit of 0 would mean "no limit" to MongoDB, so an empty page is
 * not queried. A skip walks that many index entries: the Page port's limit bounds it.
 */
export const pageWindow = (offset: number, limit: number): { skip: number; limit: number } | null => {
  if (offset >= pageBounds.maxOffset)
    throw new RangeError(`a page must start before item ${pageBounds.maxOffset} (offset ${offset})`);
  return limit <= 0 ? null : { skip: Math.max(0, offset), limit };
};
