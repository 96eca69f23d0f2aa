import type { Db, IndexDirection } from 'mongodb';
import { collectionNames, type CollectionKey } from './collections.js';
import { sortFieldPaths, type TicketSortPath } from './ticket-query.js';

// Every index of the adapter, declared here and nowhere else, created idempotently at start
// (createIndexes with the same key and options is a no-op on the server).
//
// Tickets: the application lists tickets with `deleted: false`, optionally `state $in`,
// `customerId` equality, `words $all` and a `closedAt >= t` range, in any complete order of
// contract §5 (a sequence of distinct rules, each either way, then the id tie-breaker). Following ESR (Equality, Sort, Range), each index puts the
// equality fields first (customerId or state, then `deleted`), then one sort field and `_id`.
// A search walks the index of its first rule and orders the tie runs of that rule through
// the same index with `f = value` added (then `_id` follows the equalities, so the id
// tie-breaker in either direction is the index's order), or through the next rule's index
// (ticket-plan.ts): one index per family and sort field serves every order, and no query
// sorts in memory on the server. A `state $in [a, b]` is a set of equality points: MongoDB
// merges the sorted runs of each point (SORT_MERGE). A range on `closedAt` rides on the sort
// keys (and is an index bound when the first rule is closed_at, as in recently_closed).
//
// Families (each with all seven sort fields):
//   live     {deleted, f, _id}               every staff list without a state filter
//   customer {customerId, deleted, f, _id}   a customer's lists (any state filter is checked
//                                            on the few tickets of one customer), rename
//   state    {state, deleted, f, _id}        staff lists filtered by state, recently_closed
//   assignee {assignedUserId, deleted, f, _id}  queues by assignee (ids, me, none: null)
//   group    {groupId, deleted, f, _id}       queues by group (ids, none: null)
// plus a multikey index for tags, {tags, deleted, createdAt, _id} (as the words one below), and
// one multikey index for search, {words, deleted, createdAt, _id}: a `q` lookup reads
// the tickets holding one of its words, in created_at order (the default order of a search).
// A search sorted otherwise walks its sort index with the words as a filter, or, when its
// matches are few, reads their sort keys through the words index and orders them in the
// adapter (a bounded number of small documents; ticket-search.ts).

export interface IndexSpec {
  readonly collection: CollectionKey;
  readonly name: string;
  readonly key: Readonly<Record<string, IndexDirection>>;
  readonly unique?: true;
  /** TTL: MongoDB deletes a document this many seconds after the Date in the (single) key field. */
  readonly expireAfterSeconds?: number;
}

const ticketSortPaths = Object.values(sortFieldPaths).filter((p) => p !== '_id');

export type TicketIndexFamily = 'live' | 'customer' | 'assignee' | 'group' | 'state';

/** The names of the ticket indexes, as ticket-plan.ts hints them. */
export const ticketIndexName = {
  words: 'tickets_words',
  tags: 'tickets_tags',
  custom: 'tickets_cf',
  sorted: (family: TicketIndexFamily, path: TicketSortPath): string =>
    `tickets_${family}_${path === '_id' ? 'id' : path}`,
} as const;

const ticketFamily = (family: TicketIndexFamily, prefix: Readonly<Record<string, 1>>): IndexSpec[] => [
  { collection: 'tickets', name: ticketIndexName.sorted(family, '_id'), key: { ...prefix, deleted: 1, _id: 1 } },
  ...ticketSortPaths.map((path): IndexSpec => ({
    collection: 'tickets',
    name: ticketIndexName.sorted(family, path),
    key: { ...prefix, deleted: 1, [path]: 1, _id: 1 },
  })),
];

/** Names of the unique indexes whose duplicate-key errors are expected results, not bugs. */
export const uniqueIndexNames = {
  userEmail: 'users_email_unique',
  groupName: 'groups_name_unique',
  ticketFieldKey: 'ticket_fields_key_unique',
} as const;

export const indexSpecs: readonly IndexSpec[] = [
  ...ticketFamily('live', {}),
  ...ticketFamily('customer', { customerId: 1 }),
  ...ticketFamily('state', { state: 1 }),
  // The queues of an agent and of a group (contract §5, queue filters; docs/queue-filters.md).
  ...ticketFamily('assignee', { assignedUserId: 1 }),
  ...ticketFamily('group', { groupId: 1 }),
  { collection: 'tickets', name: ticketIndexName.words, key: { words: 1, deleted: 1, createdAt: 1, _id: 1 } },
  { collection: 'tickets', name: ticketIndexName.tags, key: { tags: 1, deleted: 1, createdAt: 1, _id: 1 } },
  // Custom fields (contract §10), the attribute pattern: one compound multikey index over the
  // {field id, value} entries of every field, not one index per field (docs/custom-fields.md).
  {
    collection: 'tickets',
    name: ticketIndexName.custom,
    key: { 'cf.k': 1, 'cf.v': 1, deleted: 1, createdAt: 1, _id: 1 },
  },
  // Custom field definitions: keys are unique.
  { collection: 'ticketFields', name: uniqueIndexNames.ticketFieldKey, key: { key: 1 }, unique: true },
  // Deleting a user unassigns their tickets; deleting a group takes it off its tickets.
  { collection: 'tickets', name: 'tickets_assigned_user', key: { assignedUserId: 1 } },
  { collection: 'tickets', name: 'tickets_group', key: { groupId: 1 } },
  // find / update / list of a ticket's messages; the numbers come from the counters.
  { collection: 'messages', name: 'messages_ticket_number', key: { ticketId: 1, number: 1 }, unique: true },
  // Uploads: one user's unattached ones (the limit), the blob a record names (its bytes go when
  // none does), the expired ones oldest first (the sweep).
  { collection: 'attachments', name: 'attachments_uploader', key: { uploaderId: 1, ticketId: 1, expiresAt: 1 } },
  { collection: 'attachments', name: 'attachments_blob', key: { blobKey: 1, deletedAt: 1 } },
  { collection: 'attachments', name: 'attachments_expiry', key: { ticketId: 1, expiresAt: 1, _id: 1 } },
  // GridFS's own indexes, by the names the driver gives them (it creates them itself when missing).
  { collection: 'blobChunks', name: 'files_id_1_n_1', key: { files_id: 1, n: 1 }, unique: true },
  { collection: 'blobFiles', name: 'filename_1_uploadDate_1', key: { filename: 1, uploadDate: 1 } },
  { collection: 'users', name: uniqueIndexNames.userEmail, key: { emailKey: 1 }, unique: true },
  // Members of a group by id; removing a group from its members.
  { collection: 'users', name: 'users_groups', key: { groupIds: 1, _id: 1 } },
  { collection: 'groups', name: uniqueIndexNames.groupName, key: { nameKey: 1 }, unique: true },
  { collection: 'tokens', name: 'tokens_expiry_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 },
  { collection: 'tokens', name: 'tokens_family', key: { familyId: 1 } },
  { collection: 'tokens', name: 'tokens_user', key: { userId: 1 } },
  // Personal access tokens: one lookup by hash per request; a user's tokens listed in id order, revoked together.
  { collection: 'personalTokens', name: 'personal_tokens_hash', key: { hash: 1 }, unique: true },
  { collection: 'personalTokens', name: 'personal_tokens_user', key: { userId: 1, _id: 1 } },
  { collection: 'rateLimits', name: 'rate_limits_expiry_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 },
  // The bulk-write journal is read oldest first by the repair pass.
  { collection: 'repairs', name: 'repairs_at', key: { at: 1 } },
  // Idempotency keys: claimed by the unique _id (scope and key); forgotten after their 24 h.
  { collection: 'idempotency', name: 'idempotency_expiry_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 },
  // Webhooks due for delivery (few: admins create them); a webhook's delivery log, newest first.
  { collection: 'webhooks', name: 'webhooks_due', key: { active: 1, nextAttemptAt: 1, _id: 1 } },
  { collection: 'deliveries', name: 'webhook_deliveries_newest', key: { webhookId: 1, attemptedAt: -1, _id: -1 } },
  // The change feed of one actor (GET /v1/events?actor_id=), in seq order.
  { collection: 'events', name: 'events_actor', key: { 'actor.id': 1, _id: 1 } },
  // counters (and events, otherwise): read by _id only. Every collection, these two included,
  // is created at start before its indexes (startup.ts).
];

/** The createIndexes documents of one collection, as sent to the server. */
export const indexDescriptions = (collection: CollectionKey) =>
  indexSpecs
    .filter((s) => s.collection === collection)
    .map((s) => ({
      name: s.name,
      key: { ...s.key },
      ...(s.unique === true ? { unique: true } : {}),
      ...(s.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: s.expireAfterSeconds }),
    }));

/** Creates every index; safe to run on every start and from several processes at once. */
export const createIndexes = async (db: Db): Promise<void> => {
  for (const collection of Object.keys(collectionNames) as CollectionKey[]) {
    const descriptions = indexDescriptions(collection);
    if (descriptions.length > 0) await db.collection(collectionNames[collection]).createIndexes(descriptions);
  }
};
