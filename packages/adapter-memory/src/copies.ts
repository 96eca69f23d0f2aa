import type { TokenRecord } from '@support/application';
import {
  copyCustomValues,
  priorities,
  priorityRank,
  stateRank,
  ticketStates,
  type Attachment,
  type AttachmentSummary,
  type Group,
  type Message,
  type Ticket,
  type User,
} from '@support/domain';

// The store keeps its own copies and hands out fresh ones, field by field, so no caller ever
// holds an object (or an array) the store keeps, and no stray property is stored.

export const copyTicket = (t: Ticket): Ticket => ({
  id: t.id,
  subject: t.subject,
  summary: t.summary,
  state: t.state,
  priority: t.priority,
  customerId: t.customerId,
  customerName: t.customerName,
  assignedUserId: t.assignedUserId,
  groupId: t.groupId,
  tags: [...t.tags],
  customFields: copyCustomValues(t.customFields),
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
  closedAt: t.closedAt,
  deletedAt: t.deletedAt,
  version: t.version,
});

const noTags: readonly string[] = Object.freeze([]);
const noValues: Ticket['customFields'] = Object.freeze({});

/**
 * The copy of a ticket the store keeps (a write's, and each one a start loads): as `copyTicket`,
 * but its state and priority are the domain's own strings (one of each in the process, not
 * one per ticket as a decoded record or a request body has them) and no tags or no custom
 * values are one shared frozen empty array and object: ~120 bytes less a ticket
 * (docs/embedded-store.md, "Heap per record"). Kept tickets are never changed in place, and
 * callers only ever get a `copyTicket` of one.
 */
export const keptTicket = (t: Ticket): Ticket => ({
  id: t.id,
  subject: t.subject,
  summary: t.summary,
  state: ticketStates[stateRank(t.state)] ?? t.state,
  priority: priorities[priorityRank(t.priority)] ?? t.priority,
  customerId: t.customerId,
  customerName: t.customerName,
  assignedUserId: t.assignedUserId,
  groupId: t.groupId,
  tags: t.tags.length === 0 ? noTags : [...t.tags],
  customFields: Object.keys(t.customFields).length === 0 ? noValues : copyCustomValues(t.customFields),
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
  closedAt: t.closedAt,
  deletedAt: t.deletedAt,
  version: t.version,
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
