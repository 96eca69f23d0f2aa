import type { GroupId, UserId } from '../ids.js';
import type { Priority } from '../priority.js';
import type { Ticket } from '../ticket.js';

// The queue filters of a ticket list (contract §5, "Queue filters"): an agent's work lists
// (mine, my group's, the urgent ones, one customer's, a tag's, what changed since). AND across
// conditions, OR within one list, except tags: a ticket must carry every listed tag. This is
// the one home of their meaning; the stores are held to `matchesQueue` by the contract suite.

/** A link (assignee, group) to match: any of these ids, or (`none`) no link at all. */
export interface LinkCondition<Id extends number> {
  readonly ids: readonly Id[];
  readonly none: boolean;
}

/** The queue conditions of a store filter; null (or no tags) is no condition. */
export interface QueueConditions {
  /** The ticket's customer is one of these (an empty list matches nothing). */
  readonly customerIds: readonly UserId[] | null;
  readonly assignees: LinkCondition<UserId> | null;
  readonly groups: LinkCondition<GroupId> | null;
  readonly priorities: readonly Priority[] | null;
  /** The ticket carries every one of these tags (exact strings). */
  readonly tags: readonly string[];
  /** updated_at at or after this instant (epoch ms). */
  readonly updatedSince: number | null;
}

export const noQueueConditions: QueueConditions = {
  customerIds: null,
  assignees: null,
  groups: null,
  priorities: null,
  tags: [],
  updatedSince: null,
};

/**
 * The queue filters as a request gives them: `assigned_user_id=me` names the caller, whoever
 * that is, so it is kept as `me` until the caller is known (`queueConditions`).
 */
export interface QueueQuery extends Omit<QueueConditions, 'assignees'> {
  readonly assignees: (LinkCondition<UserId> & { readonly me: boolean }) | null;
}

export const noQueueQuery: QueueQuery = { ...noQueueConditions, assignees: null };

const distinct = <A>(xs: readonly A[]): A[] => [...new Set(xs)];

/**
 * The conditions for this caller: `me` becomes the caller's id, and a customer's own
 * restriction (`ownCustomer`) makes a `customer_id` list either no condition (it names them)
 * or nothing (it does not): a filter only narrows what a customer sees.
 */
export const queueConditions = (
  q: QueueQuery,
  callerId: UserId | null,
  ownCustomer: UserId | null,
): QueueConditions => {
  let assignees: LinkCondition<UserId> | null = null;
  if (q.assignees !== null) {
    const { ids, me, none } = q.assignees;
    if (!me) assignees = { ids: distinct(ids), none };
    else if (callerId === null) throw new Error('assigned_user_id=me needs the caller');
    else assignees = { ids: distinct([...ids, callerId]), none };
  }
  let customerIds = q.customerIds === null ? null : distinct(q.customerIds);
  if (customerIds !== null && ownCustomer !== null) customerIds = customerIds.includes(ownCustomer) ? null : [];
  return { ...q, assignees, customerIds };
};

const linkMatches = <Id extends number>(c: LinkCondition<Id> | null, value: Id | null): boolean =>
  c === null || (value === null ? c.none : c.ids.includes(value));

/** The reference meaning of the queue conditions (deleted tickets aside: see matchesTicket). */
export const matchesQueue = (c: QueueConditions, t: Ticket): boolean =>
  (c.customerIds === null || c.customerIds.includes(t.customerId)) &&
  linkMatches(c.assignees, t.assignedUserId) &&
  linkMatches(c.groups, t.groupId) &&
  (c.priorities === null || c.priorities.includes(t.priority)) &&
  c.tags.every((tag) => t.tags.includes(tag)) &&
  (c.updatedSince === null || t.updatedAt >= c.updatedSince);
