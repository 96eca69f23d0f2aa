import { noQueueConditions } from '@support/domain';
import type { Store } from '@support/application';
import { sortOf } from '@support/application/testing';
import type { GroupId, TicketId, UserId } from '@support/domain';
import { aGroup, aMessage, aTicket, aToken, aUser, at } from './builders.js';

/** One call of every operation of every port (health aside), by name. */
export const everyOperation = (store: Omit<Store, 'health'>): Record<string, () => Promise<unknown>> => ({
  'tickets.insert': () => store.tickets.insert(aTicket()),
  'tickets.findById': () => store.tickets.findById(1 as TicketId),
  'tickets.update': () => store.tickets.update(aTicket({ version: 2 }), 1),
  'tickets.search': () =>
    store.tickets.search(
      { ...noQueueConditions, states: ['open'], customerId: null, words: ['printer'], closedSince: null },
      sortOf('-createdAt'),
      0,
      30,
    ),
  'messages.insert': () => store.messages.insert(aMessage()),
  'messages.find': () => store.messages.find(aMessage().ticketId, aMessage().number),
  'messages.update': () => store.messages.update(aMessage({ version: 2 }), 1),
  'messages.list': () => store.messages.list(1 as TicketId, true, 0, 30),
  'users.insert': () => store.users.insert(aUser()),
  'users.findById': () => store.users.findById(10 as UserId),
  'users.findByEmail': () => store.users.findByEmail('ada@example.com'),
  'users.findByIds': () => store.users.findByIds([10 as UserId]),
  'users.update': () => store.users.update(aUser({ version: 2 }), 1),
  'users.delete': () => store.users.delete(10 as UserId, 0),
  'users.list': () => store.users.list(null, 0, 30),
  'users.list (group)': () => store.users.list(3 as GroupId, 0, 30),
  'users.count': () => store.users.count(),
  'groups.insert': () => store.groups.insert(aGroup()),
  'groups.findById': () => store.groups.findById(3 as GroupId),
  'groups.findByIds': () => store.groups.findByIds([3 as GroupId]),
  'groups.update': () => store.groups.update(aGroup({ version: 2 }), 1),
  'groups.delete': () => store.groups.delete(3 as GroupId, 0),
  'groups.list': () => store.groups.list(0, 30),
  'tokens.save': () => store.tokens.save(aToken()),
  'tokens.find': () => store.tokens.find(aToken().hash, at),
  'tokens.consume': () => store.tokens.consume(aToken().hash, at),
  'tokens.revoke': () => store.tokens.revoke(aToken().hash),
  'tokens.revokeFamily': () => store.tokens.revokeFamily('family-1'),
  'rateLimits.hit': () => store.rateLimits.hit('user:10', at, 60_000),
  'ids.next': () => store.ids.next('ticket'),
});
