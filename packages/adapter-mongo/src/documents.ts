import {
  emailKey,
  groupNameKey,
  messageUpgrades,
  type Email,
  type Group,
  type GroupId,
  type Message,
  type MessageNumber,
  type Role,
  type Scope,
  type TicketId,
  type User,
  type UserId,
} from '@support/domain';
import type { TokenKind, TokenRecord } from '@support/application';
import { fromSummaryDocument, toSummaryDocument, type SummaryDocument } from './attachment-documents.js';
import { fromDateOrNull, toDate, toDateOrNull } from './dates.js';

// How the domain's records are laid out in MongoDB.
//
// Timestamps are BSON Dates, not numbers: the TTL indexes on tokens and rate-limit
// counters need Dates, one representation everywhere avoids mix-ups, mongosh shows them
// readably, and a Date holds exactly the domain's epoch milliseconds (so nothing is lost
// in the round trip). Dates order chronologically and a null sorts before any Date, which
// is the domain's order for `closed_at`.
//
// Ids are the documents' `_id` (integers from the counters collection), so a lookup by id
// and the id tie-breaker of every sort use the built-in `_id` index.

export {
  everyTicketFieldIsStored,
  fromTicketDocument,
  nameWords,
  ticketProjection,
  toTicketDocument,
  type CfEntry,
  type StoredTicket,
  type TicketDocument,
} from './ticket-documents.js';

export interface MessageDocument {
  ticketId: number;
  number: number;
  body: string;
  authorId: number;
  internal: boolean;
  /** Absent on a message stored before attachments existed. */
  attachments?: SummaryDocument[];
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  version: number;
}

export const toMessageDocument = (m: Message): MessageDocument => ({
  ticketId: m.ticketId,
  number: m.number,
  body: m.body,
  authorId: m.authorId,
  internal: m.internal,
  attachments: m.attachments.map(toSummaryDocument),
  createdAt: toDate(m.createdAt),
  updatedAt: toDate(m.updatedAt),
  deletedAt: toDateOrNull(m.deletedAt),
  version: m.version,
});

/** Messages are read without their ObjectId `_id`: (ticketId, number) is their key. */
export const messageProjection = { _id: 0 } as const;

/**
 * A field added since the first format may be absent from an older document: it reads
 * `d.<field> === undefined ? messageUpgrades.<field> : ...` (the domain's upgrade default); the
 * Message literal makes leaving a field out a build error.
 */
export const fromMessageDocument = (d: MessageDocument): Message => ({
  ticketId: d.ticketId as TicketId,
  number: d.number as MessageNumber,
  body: d.body,
  authorId: d.authorId as UserId,
  internal: d.internal,
  attachments: d.attachments === undefined ? messageUpgrades.attachments : d.attachments.map(fromSummaryDocument),
  createdAt: d.createdAt.getTime(),
  updatedAt: d.updatedAt.getTime(),
  deletedAt: fromDateOrNull(d.deletedAt),
  version: d.version,
});

export interface UserDocument {
  _id: number;
  name: string;
  email: string;
  /** The e-mail lower-cased: the unique index that makes e-mails unique without regard to case. */
  emailKey: string;
  role: Role;
  groupIds: number[];
  passwordHash: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

export const toUserDocument = (u: User): UserDocument => ({
  _id: u.id,
  name: u.name,
  email: u.email,
  emailKey: emailKey(u.email),
  role: u.role,
  groupIds: [...u.groupIds],
  passwordHash: u.passwordHash,
  createdAt: toDate(u.createdAt),
  updatedAt: toDate(u.updatedAt),
  version: u.version,
});

/**
 * A field added since the first format may be absent from an older document: it reads
 * `d.<field> === undefined ? userUpgrades.<field> : ...` (the domain's upgrade default); the
 * User literal makes leaving a field out a build error.
 */
export const fromUserDocument = (d: UserDocument): User => ({
  id: d._id as UserId,
  name: d.name,
  email: d.email as Email,
  role: d.role,
  groupIds: d.groupIds as GroupId[],
  passwordHash: d.passwordHash,
  createdAt: d.createdAt.getTime(),
  updatedAt: d.updatedAt.getTime(),
  version: d.version,
});

export interface GroupDocument {
  _id: number;
  name: string;
  /** The name lower-cased: unique index, so names are unique without regard to case. */
  nameKey: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

export const toGroupDocument = (g: Group): GroupDocument => ({
  _id: g.id,
  name: g.name,
  nameKey: groupNameKey(g.name),
  description: g.description,
  createdAt: toDate(g.createdAt),
  updatedAt: toDate(g.updatedAt),
  version: g.version,
});

/**
 * A field added since the first format may be absent from an older document: it reads
 * `d.<field> === undefined ? groupUpgrades.<field> : ...` (the domain's upgrade default); the
 * Group literal makes leaving a field out a build error.
 */
export const fromGroupDocument = (d: GroupDocument): Group => ({
  id: d._id as GroupId,
  name: d.name,
  description: d.description,
  createdAt: d.createdAt.getTime(),
  updatedAt: d.updatedAt.getTime(),
  version: d.version,
});

export interface TokenDocument {
  /** The token's SHA-256: the token itself is never stored. */
  _id: string;
  kind: TokenKind;
  userId: number;
  familyId: string;
  /** A Date, for the TTL index that lets MongoDB forget expired tokens. */
  expiresAt: Date;
  /** Set once a refresh token has been used: a second use is a replay. */
  used: boolean;
  /** The scopes a login was narrowed to; absent: every scope of the user's role. */
  scopes?: Scope[];
  /** When the server stored it (set by the server on every save). */
  savedAt?: Date;
  /** When the family's password grant was (its refresh chain ends REFRESH_MAX_AGE_S after). */
  authenticatedAt?: Date;
}

export const toTokenDocument = (r: TokenRecord): TokenDocument => ({
  _id: r.hash,
  kind: r.kind,
  userId: r.userId,
  familyId: r.familyId,
  expiresAt: toDate(r.expiresAt),
  used: false,
  ...(r.scopes === undefined ? {} : { scopes: [...r.scopes] }),
  ...(r.authenticatedAt === undefined ? {} : { authenticatedAt: toDate(r.authenticatedAt) }),
});

export const fromTokenDocument = (d: TokenDocument): TokenRecord => ({
  hash: d._id,
  kind: d.kind,
  userId: d.userId as UserId,
  familyId: d.familyId,
  expiresAt: d.expiresAt.getTime(),
  ...(d.scopes === undefined ? {} : { scopes: d.scopes }),
  ...(d.authenticatedAt === undefined ? {} : { authenticatedAt: d.authenticatedAt.getTime() }),
});

export interface RateLimitDocument {
  /** `${windowStart}:${key}`: one counter per key and fixed window. */
  _id: string;
  count: number;
  /** End of the window: the TTL index forgets the counter after it. */
  expiresAt: Date;
}

export interface CounterDocument {
  /** The sequence's name: 'ticket', 'user', 'group', 'message:<ticketId>'. */
  _id: string;
  seq: number;
}
