import * as E from 'fp-ts/lib/Either.js';
import type {
  Attachment,
  AttachmentId,
  Customer,
  Email,
  FieldError,
  Group,
  GroupId,
  Message,
  MessageNumber,
  Ticket,
  TicketId,
  User,
  UserId,
} from '../src/index.js';

// The object mothers of every package's tests (one set: @support/domain/testing, re-exported by
// @support/application/testing): a valid record with dull defaults, so a test states only what
// matters to it. Ids are plain numbers here; the mothers brand them.

/** Monday 6 January 2025, 09:00 UTC: the instant the example records are made at. */
export const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
export const minutes = (n: number): number => n * MINUTE;
export const hours = (n: number): number => n * 60 * MINUTE;

export const ticketId = (n: number): TicketId => n as TicketId;
export const userId = (n: number): UserId => n as UserId;
export const groupId = (n: number): GroupId => n as GroupId;
export const messageNumber = (n: number): MessageNumber => n as MessageNumber;
export const attachmentId = (n: number): AttachmentId => n as AttachmentId;

/** A record's fields, each optional, with the branded ones (ids, e-mail) as plain values. */
export type Spec<T, Plain extends { readonly [K in keyof T]?: unknown }> = Partial<Omit<T, keyof Plain>> & Plain;

export type TicketSpec = Spec<
  Ticket,
  {
    readonly id?: number;
    readonly customerId?: number;
    readonly assignedUserId?: number | null;
    readonly groupId?: number | null;
  }
>;

const orNull = <T>(n: number | null | undefined, brand: (n: number) => T): T | null =>
  n === null || n === undefined ? null : brand(n);

/**
 * An open, undeleted ticket of customer 1 ("Ada Lovelace") made at T0. A closed ticket gets
 * `closedAt` = its `updatedAt` unless the test says otherwise, so the state machine's invariant
 * (closedAt set exactly when closed) holds by default.
 */
export const aTicket = (spec: TicketSpec = {}): Ticket => {
  const createdAt = spec.createdAt ?? T0;
  const updatedAt = spec.updatedAt ?? createdAt;
  const state = spec.state ?? 'open';
  return {
    subject: 'Printer on fire',
    summary: 'Smoke comes out of the paper tray.',
    priority: 'normal',
    customerName: 'Ada Lovelace',
    tags: [],
    customFields: {},
    deletedAt: null,
    version: 1,
    ...spec,
    state,
    createdAt,
    updatedAt,
    closedAt: spec.closedAt !== undefined ? spec.closedAt : state === 'closed' ? updatedAt : null,
    id: ticketId(spec.id ?? 1),
    customerId: userId(spec.customerId ?? 1),
    assignedUserId: orNull(spec.assignedUserId, userId),
    groupId: orNull(spec.groupId, groupId),
  };
};

export const aCustomer = (id = 1, name = 'Ada Lovelace'): Customer => ({ id: userId(id), name });

export type MessageSpec = Spec<
  Message,
  { readonly ticketId?: number; readonly number?: number; readonly authorId?: number }
>;

export const aMessage = (spec: MessageSpec = {}): Message => ({
  body: 'Have you tried turning it off and on again?',
  internal: false,
  attachments: [],
  createdAt: T0,
  updatedAt: spec.createdAt ?? T0,
  deletedAt: null,
  version: 1,
  ...spec,
  ticketId: ticketId(spec.ticketId ?? 1),
  number: messageNumber(spec.number ?? 1),
  authorId: userId(spec.authorId ?? 1),
});

export type UserSpec = Spec<
  User,
  { readonly id?: number; readonly email?: string; readonly groupIds?: readonly number[] }
>;

export const aUser = (spec: UserSpec = {}): User => {
  const id = spec.id ?? 1;
  return {
    name: `User ${String(id)}`,
    role: 'customer',
    passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo',
    createdAt: T0,
    updatedAt: spec.createdAt ?? T0,
    version: 1,
    ...spec,
    id: userId(id),
    email: (spec.email ?? `user${String(id)}@example.com`) as Email,
    groupIds: (spec.groupIds ?? []).map(groupId),
  };
};

export type GroupSpec = Spec<Group, { readonly id?: number }>;

export const aGroup = (spec: GroupSpec = {}): Group => {
  const id = spec.id ?? 1;
  return {
    name: `Group ${String(id)}`,
    description: '',
    createdAt: T0,
    updatedAt: spec.createdAt ?? T0,
    version: 1,
    ...spec,
    id: groupId(id),
  };
};

/** The Right of an Either, or a failed test naming the Left. */
export const rightOf = <L, R>(e: E.Either<L, R>): R => {
  if (E.isLeft(e)) throw new Error(`expected Right, got Left: ${JSON.stringify(e.left)}`);
  return e.right;
};

/** The Left of an Either, or a failed test naming the Right. */
export const leftOf = <L, R>(e: E.Either<L, R>): L => {
  if (E.isRight(e)) throw new Error(`expected Left, got Right: ${JSON.stringify(e.right)}`);
  return e.left;
};

/** Field errors as [field, code] pairs, the part of an error a client acts on. */
export const fieldCodes = (errors: readonly FieldError[]): [string, string][] => errors.map((e) => [e.field, e.code]);

export type UploadSpec = Spec<Attachment, { readonly id?: number; readonly uploaderId?: number }>;

/** An upload (not attached) of 5 bytes, made at T0 and expiring a day later. */
export const anUpload = (spec: UploadSpec = {}): Attachment => ({
  filename: 'screenshot.png',
  contentType: 'image/png',
  size: 5,
  sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
  blobKey: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
  scan: 'not_scanned',
  createdAt: T0,
  expiresAt: T0 + DAY,
  message: null,
  deletedAt: null,
  ...spec,
  id: attachmentId(spec.id ?? 1),
  uploaderId: userId(spec.uploaderId ?? 1),
});
