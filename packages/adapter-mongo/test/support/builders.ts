import type { TokenRecord } from '@support/application';
import {
  aGroup as group,
  aMessage as message,
  aTicket as ticket,
  aTokenRecord,
  aUser as user,
} from '@support/application/testing';
import type { Group, Message, Ticket, User } from '@support/domain';

// The Mongo suites' records come from the one set of object mothers (@support/application/testing);
// this module only fixes the defaults these suites were written against (customer 10, group 3,
// an e-mail with capitals for the case-insensitive key, the instant `at`).

export const at = Date.UTC(2026, 0, 1);

export const aTicket = (over: Partial<Ticket> = {}): Ticket =>
  ticket({ summary: 'It smokes.', customerId: 10, createdAt: at, updatedAt: at, ...over });

export const aMessage = (over: Partial<Message> = {}): Message =>
  message({ body: 'Hello', authorId: 10, createdAt: at, updatedAt: at, ...over });

export const aUser = (over: Partial<User> = {}): User =>
  user({
    id: 10,
    name: 'Ada Lovelace',
    email: 'Ada@Example.com',
    passwordHash: 'hash',
    createdAt: at,
    updatedAt: at,
    ...over,
  });

export const aGroup = (over: Partial<Group> = {}): Group =>
  group({ id: 3, name: 'Tier 1', description: 'first line', createdAt: at, updatedAt: at, ...over });

export const aToken = (over: Partial<TokenRecord> = {}): TokenRecord =>
  aTokenRecord({ hash: 'a'.repeat(64), userId: 10, expiresAt: at + 3_600_000, ...over });
