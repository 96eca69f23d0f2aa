import { completeSort, type SortField, type SortRule, type TicketFilter, type TicketState } from '@support/domain';
import type { TicketDocument } from './documents.js';

// The translation of the domain's ticket query (TicketFilter + SortRule[]) into MongoDB
// filter and sort documents. Pure, so the exact documents are unit-tested and their meaning
// is cross-checked against the domain's reference `matchesTicket` / `compareTickets`.

/** The document field each sort field orders by: ranks for state and priority, `_id` for id. */
export const sortFieldPaths = {
  id: '_id',
  subject: 'subject',
  state: 'stateRank',
  priority: 'priorityRank',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
  closed_at: 'closedAt',
} as const satisfies Record<SortField, keyof TicketDocument>;

export type TicketSortPath = (typeof sortFieldPaths)[SortField];

export type MongoTicketFilter = {
  deleted: false;
  state?: { $in: TicketState[] };
  customerId?: number;
  words?: { $all: string[] };
  closedAt?: { $gte: Date };
};

/**
 * The filter selecting exactly the tickets `matchesTicket` selects. Clauses appear only
 * for the parts of the filter that are set: `$all: []` would match nothing in MongoDB,
 * where the domain's empty word list matches everything. An empty state list stays
 * `$in: []`, which matches nothing, as in the domain.
 */
export const ticketFilterToMongo = (filter: TicketFilter): MongoTicketFilter => {
  const query: MongoTicketFilter = { deleted: false };
  if (filter.states !== null) query.state = { $in: [...filter.states] };
  if (filter.customerId !== null) query.customerId = filter.customerId;
  if (filter.words.length > 0) query.words = { $all: [...filter.words] };
  // `$gte` on a Date never matches null: a ticket without closed_at is not recently closed.
  if (filter.closedSince !== null) query.closedAt = { $gte: new Date(filter.closedSince) };
  return query;
};

export type MongoSort = Partial<Record<TicketSortPath, 1 | -1>>;

/**
 * The sort document of a complete order (the id tie-breaker is added, in the direction
 * of the last rule, when the caller left it out). Key order is the rule order: the
 * driver sends the object's keys in insertion order, and `_id` is always last.
 */
export const sortToMongo = (sort: readonly SortRule[]): MongoSort => {
  const out: MongoSort = {};
  for (const rule of completeSort(sort)) out[sortFieldPaths[rule.field]] = rule.direction === 'asc' ? 1 : -1;
  return out;
};

/** skip/limit of a page; a limit of 0 would mean "no limit" to MongoDB, so an empty page is not queried. */
export const pageWindow = (offset: number, limit: number): { skip: number; limit: number } | null =>
  limit <= 0 ? null : { skip: Math.max(0, offset), limit };
