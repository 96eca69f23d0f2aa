import type { TokenRecord } from '@support/application';
import {
  priorities,
  priorityRank,
  stateRank,
  ticketStates,
  type Attachment,
  type CustomValues,
  type AttachmentSummary,
  type Group,
  type Message,
  type Ticket,
  type User,
} from '@support/domain';

// The store keeps its own copies and hands out fresh ones, field by field, so no caller ever
// holds an object (or an array) the store keeps, and no stray property is stored.

const noTags: readonly string[] = Object.freeze([]);

/**
 * A string the store keeps, as a copy of its own where it could be a slice of a larger one:
 * LMDB's decoder (msgpackr's native string extraction, for records of 140 bytes or more) makes
 * one string of a record's consecutive strings and hands out each of 13 characters or more as
 * a slice of it, which a kept slice would keep whole (the record's other strings with it:
 * measured 35 MB of heap at 200k tickets with custom values). Shorter strings are copies already.
 */
export const ownString = (s: string): string => (s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string));

/** A stored ticket but its custom values, which the ticket table keeps in columns (tickets/value-columns.ts). */
export type TicketRow = Omit<Ticket, 'customFields'>;

/**
 * The row of a ticket the store keeps (a write's, and each one a start loads), field by field,
 * but its state and priority are the domain's own strings (one of each in the process, not
 * one per ticket as a decoded record or a request body has them), no tags are one shared
 * frozen empty array, and its custom values are not in it (the table's columns hold them): ~120
 * bytes less a ticket (docs/embedded-store.md, "Heap per record"), and no values object. Kept
 * rows are never changed in place, and callers only ever get a copy of one.
 */
export const keptRow = (t: Ticket): TicketRow => ({
  id: t.id,
  subject: ownString(t.subject),
  summary: ownString(t.summary),
  state: ticketStates[stateRank(t.state)] ?? t.state,
  priority: priorities[priorityRank(t.priority)] ?? t.priority,
  customerId: t.customerId,
  customerName: ownString(t.customerName),
  assignedUserId: t.assignedUserId,
  groupId: t.groupId,
  tags: t.tags.length === 0 ? noTags : t.tags.map(ownString),
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
  closedAt: t.closedAt,
  deletedAt: t.deletedAt,
  version: t.version,
});

/**
 * The ticket of a kept row with these tags and custom values, field by field: an object
 * literal gets its exact shape at once (~340 bytes with its tags), where a spread of the row
 * that then adds `customFields` grows a property store too (~920 bytes).
 */
export const ticketOfRow = (r: TicketRow, tags: readonly string[], customFields: CustomValues): Ticket => ({
  id: r.id,
  subject: r.subject,
  summary: r.summary,
  state: r.state,
  priority: r.priority,
  customerId: r.customerId,
  customerName: r.customerName,
  assignedUserId: r.assignedUserId,
  groupId: r.groupId,
  tags,
  customFields,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  closedAt: r.closedAt,
  deletedAt: r.deletedAt,
  version: r.version,
});

/**
 * A caller's copy of a kept row: `ticketOfRow`, but made at an allocation site of its own. V8
 * allocates the objects of a literal directly in the old generation once most of them outlive
 * a young collection ("pretenuring", decided per site): the stored tickets `put` makes are kept
 * (the journal and the change feed hold them), and a search's page copies made at that same
 * site would be pretenured with them, to die in the old generation, keeping the young objects
 * they point to alive through every young collection until a full one (docs/benchmarks.md,
 * "Custom fields at a million tickets").
 */
export const callerTicket = (r: TicketRow, customFields: CustomValues): Ticket => ({
  id: r.id,
  subject: r.subject,
  summary: r.summary,
  state: r.state,
  priority: r.priority,
  customerId: r.customerId,
  customerName: r.customerName,
  assignedUserId: r.assignedUserId,
  groupId: r.groupId,
  tags: [...r.tags],
  customFields,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  closedAt: r.closedAt,
  deletedAt: r.deletedAt,
  version: r.version,
});

export const copyMessage = (m: Message): Message => ({
  ticketId: m.ticketId,
  number: m.number,
  body: m.body,
  authorId: m.authorId,
  internal: m.internal,
  attachments: m.attachments.map(copySummary),
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
  deletedAt: m.deletedAt,
  version: m.version,
});

export const copyUser = (u: User): User => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role,
  groupIds: [...u.groupIds],
  passwordHash: u.passwordHash,
  createdAt: u.createdAt,
  updatedAt: u.updatedAt,
  version: u.version,
});

export const copyGroup = (g: Group): Group => ({
  id: g.id,
  name: g.name,
  description: g.description,
  createdAt: g.createdAt,
  updatedAt: g.updatedAt,
  version: g.version,
});

export const copyTokenRecord = (r: TokenRecord): TokenRecord => ({
  hash: r.hash,
  kind: r.kind,
  userId: r.userId,
  familyId: r.familyId,
  expiresAt: r.expiresAt,
  ...(r.scopes === undefined ? {} : { scopes: [...r.scopes] }),
  ...(r.authenticatedAt === undefined ? {} : { authenticatedAt: r.authenticatedAt }),
});

export const copySummary = (a: AttachmentSummary): AttachmentSummary => ({
  id: a.id,
  filename: a.filename,
  contentType: a.contentType,
  size: a.size,
  sha256: a.sha256,
  scan: a.scan,
  createdAt: a.createdAt,
});

export const copyAttachment = (a: Attachment): Attachment => ({
  id: a.id,
  uploaderId: a.uploaderId,
  filename: a.filename,
  contentType: a.contentType,
  size: a.size,
  sha256: a.sha256,
  blobKey: a.blobKey,
  scan: a.scan,
  createdAt: a.createdAt,
  expiresAt: a.expiresAt,
  message: a.message === null ? null : { ticketId: a.message.ticketId, number: a.message.number },
  deletedAt: a.deletedAt,
});
