import { noQueueConditions } from '@support/domain';
import { sortOf } from '@support/application/testing';
import type { GroupId, TicketId, UserId } from '@support/domain';
import { expect } from 'chai';
import { aGroup, aMessage, aTicket, aUser } from './support/builders.js';
import { engineStore } from './support/mingo-engine.js';

// Lists count first and read a page only when it holds something: a page past the end costs
// one count, never a skip through the index (what the adapter sends, seen by the engine).

describe('paging: count first, no read past the end', () => {
  const lists = {
    'tickets.search': async (store: ReturnType<typeof engineStore>, offset: number) =>
      store.tickets.search(
        { ...noQueueConditions, states: null, customerId: null, words: [], closedSince: null },
        sortOf('id'),
        offset,
        2,
      ),
    'users.list': async (store: ReturnType<typeof engineStore>, offset: number) => store.users.list(null, offset, 2),
    'users.list (members)': async (store: ReturnType<typeof engineStore>, offset: number) =>
      store.users.list(3 as GroupId, offset, 2),
    'groups.list': async (store: ReturnType<typeof engineStore>, offset: number) => store.groups.list(offset, 2),
    'messages.list': async (store: ReturnType<typeof engineStore>, offset: number) =>
      store.messages.list(1 as TicketId, true, offset, 2),
  } as const;

  const filled = async () => {
    const store = engineStore({ indexedSorts: 'ignore' });
    for (let i = 1; i <= 3; i++) {
      await store.tickets.insert(aTicket({ id: i as TicketId }));
      await store.users.insert(aUser({ id: i as UserId, email: `u${i}@x.io` as never, groupIds: [3 as GroupId] }));
      await store.groups.insert(aGroup({ id: i as GroupId, name: `g${i}` }));
      await store.messages.insert(aMessage({ number: i as never }));
    }
    return store;
  };

  for (const [name, list] of Object.entries(lists)) {
    it(`${name}: a page inside the list is a count, then one read`, async () => {
      const store = await filled();
      store.engine.sent.length = 0;
      const page = await list(store, 2);
      expect(page.total).to.equal(3);
      expect(page.items).to.have.length(1);
      expect(store.engine.sent.map((q) => q.op)).to.deep.equal(['count', 'find']);
    });
    it(`${name}: a page past the end is the count alone`, async () => {
      const store = await filled();
      store.engine.sent.length = 0;
      expect(await list(store, 3)).to.deep.equal({ items: [], total: 3 });
      expect(await list(store, 9_999)).to.deep.equal({ items: [], total: 3 });
      expect(store.engine.sent.map((q) => q.op)).to.deep.equal(['count', 'count']);
    });
  }
});
