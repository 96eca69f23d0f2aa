// Object mothers: each test names only the fields that matter to it; everything else is
// a plausible default. Ids are plain numbers here and branded once, in one place.
import * as E from 'fp-ts/lib/Either.js';
import type {
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
} from '../../src/index.js';

/** 2024-01-01T00:00:00.000Z, the instant every default timestamp is based on. */
export const T0 = Date.UTC(2024, 0, 1);
export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

export const ticketId = (n: number): TicketId => n as TicketId;
export const userId = (n: number): UserId => n as UserId;
export const groupId = (n: number): GroupId => n as GroupId;
export const messageNumber = (n: number): MessageNumber => n as MessageNumber;

type Loosen<T, K extends keyof T, V> = Omit<T, K> & { readonly [P in K]: V };

/** A ticket's fields with plain numbers for ids. */
export type TicketSpec = Partial<
  Loosen<
    Loosen<Loosen<Loosen<Ticket, 'id', number>, 'customerId', number>, 'assignedUserId', number | null>,
    'groupId',
    number | null
  >
>;

/**
 * An open, undeleted ticket created at T0 by customer 2 ("Alice Liddell"). A closed
 * ticket gets `closedAt` = its `updatedAt` unless the test says otherwise, so the
 * state-machine invariant (closedAt set iff closed) holds by default.
 */
export const aTicket = (spec: TicketSpec = {}): Ticket => {
  const createdAt = spec.createdAt ?? T0;
  const updatedAt = spec.updatedAt ?? createdAt;
  const state = spec.state ?? 'open';
  return {
    id: ticketId(spec.id ?? 1),
    subject: spec.subject ?? 'Printer on fire',
    summary: spec.summary ?? '',
    state,
    priority: spec.priority ?? 'normal',
    customerId: userId(spec.customerId ?? 2),
    customerName: spec.customerName ?? 'Alice Liddell',
    assignedUserId: spec.assignedUserId === undefined || spec.assignedUserId === null ? null : userId(spec.assignedUserId),
    groupId: spec.groupId === undefined || spec.groupId === null ? null : groupId(spec.groupId),
    tags: spec.tags ?? [],
    createdAt,
    updatedAt,
    closedAt: spec.closedAt !== undefined ? spec.closedAt : state === 'closed' ? updatedAt : null,
    deletedAt: spec.deletedAt ?? null,
    version: spec.version ?? 1,
  };
};

export const aCustomer = (id = 2, name = 'Alice Liddell'): Customer => ({ id: userId(id), name });

export const aMessage = (spec: Partial<Loosen<Message, 'ticketId' | 'number' | 'authorId', number>> = {}): Message => ({
  ticketId: ticketId(spec.ticketId ?? 1),
  number: messageNumber(spec.number ?? 1),
  body: spec.body ?? 'It is still burning.',
  authorId: userId(spec.authorId ?? 2),
  internal: spec.internal ?? false,
  createdAt: spec.createdAt ?? T0,
  updatedAt: spec.updatedAt ?? spec.createdAt ?? T0,
  deletedAt: spec.deletedAt ?? null,
  version: spec.version ?? 1,
});

export const aUser = (spec: Partial<Loosen<Loosen<User, 'id', number>, 'groupIds', readonly number[]>> = {}): User => ({
  id: userId(spec.id ?? 2),
  name: spec.name ?? 'Alice Liddell',
  email: spec.email ?? ('alice@example.com' as Email),
  role: spec.role ?? 'customer',
  groupIds: (spec.groupIds ?? []).map(groupId),
  passwordHash: spec.passwordHash ?? '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA',
  createdAt: spec.createdAt ?? T0,
  updatedAt: spec.updatedAt ?? spec.createdAt ?? T0,
  version: spec.version ?? 1,
});

export const aGroup = (spec: Partial<Loosen<Group, 'id', number>> = {}): Group => ({
  id: groupId(spec.id ?? 1),
  name: spec.name ?? 'Hardware',
  description: spec.description ?? '',
  createdAt: spec.createdAt ?? T0,
  updatedAt: spec.updatedAt ?? spec.createdAt ?? T0,
  version: spec.version ?? 1,
});

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
export const fieldCodes = (errors: readonly FieldError[]): Array<[string, string]> => errors.map((e) => [e.field, e.code]);
