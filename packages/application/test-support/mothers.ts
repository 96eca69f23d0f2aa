import type {
  Email,
  Group,
  GroupId,
  Message,
  MessageNumber,
  Ticket,
  TicketId,
  User,
  UserId,
} from '@support/domain';
import type { TokenRecord } from '../src/index.js';

// Object mothers: a valid record with dull defaults, so a test states only what matters to it.
// Ids are plain numbers here; the mothers brand them.

/** Monday 6 January 2025, 09:00 UTC: the instant the example records are made at. */
export const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
export const minutes = (n: number): number => n * 60_000;
export const hours = (n: number): number => n * 3_600_000;

export const ticketId = (n: number): TicketId => n as TicketId;
export const userId = (n: number): UserId => n as UserId;
export const groupId = (n: number): GroupId => n as GroupId;
export const messageNumber = (n: number): MessageNumber => n as MessageNumber;

/** A record's fields, each optional, with the branded ones (ids, e-mail) as plain values. */
type Spec<T, Plain extends { readonly [K in keyof T]?: unknown }> = Partial<Omit<T, keyof Plain>> & Plain;

export type TicketSpec = Spec<
  Ticket,
  { readonly id?: number; readonly customerId?: number; readonly assignedUserId?: number | null; readonly groupId?: number | null }
>;

const orNull = <T>(n: number | null | undefined, brand: (n: number) => T): T | null =>
  n === null || n === undefined ? null : brand(n);

export const aTicket = (spec: TicketSpec = {}): Ticket => ({
  subject: 'Printer on fire',
  summary: 'Smoke comes out of the paper tray.',
  state: 'open',
  priority: 'normal',
  customerName: 'Ada Lovelace',
  tags: [],
  createdAt: T0,
  updatedAt: T0,
  closedAt: null,
  deletedAt: null,
  version: 1,
  ...spec,
  id: ticketId(spec.id ?? 1),
  customerId: userId(spec.customerId ?? 1),
  assignedUserId: orNull(spec.assignedUserId, userId),
  groupId: orNull(spec.groupId, groupId),
});

export type MessageSpec = Spec<Message, { readonly ticketId?: number; readonly number?: number; readonly authorId?: number }>;

export const aMessage = (spec: MessageSpec = {}): Message => ({
  body: 'Have you tried turning it off and on again?',
  internal: false,
  createdAt: T0,
  updatedAt: T0,
  deletedAt: null,
  version: 1,
  ...spec,
  ticketId: ticketId(spec.ticketId ?? 1),
  number: messageNumber(spec.number ?? 1),
  authorId: userId(spec.authorId ?? 1),
});

export type UserSpec = Spec<User, { readonly id?: number; readonly email?: string; readonly groupIds?: readonly number[] }>;

export const aUser = (spec: UserSpec = {}): User => {
  const id = spec.id ?? 1;
  return {
    name: `User ${id}`,
    role: 'customer',
    passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo',
    createdAt: T0,
    updatedAt: T0,
    version: 1,
    ...spec,
    id: userId(id),
    email: (spec.email ?? `user${id}@example.com`) as Email,
    groupIds: (spec.groupIds ?? []).map(groupId),
  };
};

export type GroupSpec = Spec<Group, { readonly id?: number }>;

export const aGroup = (spec: GroupSpec = {}): Group => {
  const id = spec.id ?? 1;
  return {
    name: `Group ${id}`,
    description: '',
    createdAt: T0,
    updatedAt: T0,
    version: 1,
    ...spec,
    id: groupId(id),
  };
};

export type TokenRecordSpec = Spec<TokenRecord, { readonly userId?: number }>;

/**
 * A refresh token record that expires in an hour of real time: stores may forget expired
 * tokens on their own clock (MongoDB's TTL monitor), so test tokens expire in the future.
 */
export const aTokenRecord = (spec: TokenRecordSpec = {}): TokenRecord => ({
  hash: 'a3f1c9e2b7d04f6a8e5c1b9d2f7a6e3c4b8d1f0a9e2c7b6d5f4a3e2c1b0d9f8e',
  kind: 'refresh',
  familyId: 'family-1',
  expiresAt: Date.now() + hours(1),
  ...spec,
  userId: userId(spec.userId ?? 1),
});
