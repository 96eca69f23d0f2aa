import type { TokenRecord } from '@support/application';
import type { Email, Group, GroupId, Message, MessageNumber, Ticket, TicketId, User, UserId } from '@support/domain';

// Object mothers: a test states only the fields that matter to it.

export const at = Date.UTC(2026, 0, 1);

export const aTicket = (over: Partial<Ticket> = {}): Ticket => ({
  id: 1 as TicketId,
  subject: 'Printer on fire',
  summary: 'It smokes.',
  state: 'open',
  priority: 'normal',
  customerId: 10 as UserId,
  customerName: 'Ada Lovelace',
  assignedUserId: null,
  groupId: null,
  tags: [],
  createdAt: at,
  updatedAt: at,
  closedAt: null,
  deletedAt: null,
  version: 1,
  ...over,
});

export const aMessage = (over: Partial<Message> = {}): Message => ({
  ticketId: 1 as TicketId,
  number: 1 as MessageNumber,
  body: 'Hello',
  authorId: 10 as UserId,
  internal: false,
  createdAt: at,
  updatedAt: at,
  deletedAt: null,
  version: 1,
  ...over,
});

export const aUser = (over: Partial<User> = {}): User => ({
  id: 10 as UserId,
  name: 'Ada Lovelace',
  email: 'Ada@Example.com' as Email,
  role: 'customer',
  groupIds: [],
  passwordHash: 'hash',
  createdAt: at,
  updatedAt: at,
  version: 1,
  ...over,
});

export const aGroup = (over: Partial<Group> = {}): Group => ({
  id: 3 as GroupId,
  name: 'Tier 1',
  description: 'first line',
  createdAt: at,
  updatedAt: at,
  version: 1,
  ...over,
});

export const aToken = (over: Partial<TokenRecord> = {}): TokenRecord => ({
  hash: 'a'.repeat(64),
  kind: 'refresh',
  userId: 10 as UserId,
  familyId: 'family-1',
  expiresAt: at + 3_600_000,
  ...over,
});
