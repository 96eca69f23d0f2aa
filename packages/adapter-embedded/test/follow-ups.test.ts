import type { FollowUp } from '@support/application';
import { aTicket, aUser, ticketId, userId } from '@support/application/testing';
import { expect } from 'chai';
import { CommitFailedError, type EmbeddedStore } from '../src/index.js';
import { startedStore, tempDirEachTest } from './temp-store.js';

// A user's write and the follow-ups it makes due (a renamed customer's name on their tickets)
// are one port call of the memory engine, so one commit here: a failed commit leaves neither
// (memory equals the disk), and what a restart reads back never has the user renamed and the
// tickets not.

const now = Date.UTC(2026, 0, 2);
const ada = aUser({ id: 7, name: 'Ada Lovelace', email: 'ada@example.com', role: 'customer' });
const renamed = { ...ada, name: 'Ada King', updatedAt: now, version: 2 };
/** The admin whose request renamed the customer (contract §8.3): the follow-up's events carry it, also after a restart. */
const admin = { type: 'user', id: userId(1) } as const;
const rename: FollowUp[] = [{ op: 'renameCustomer', customerId: userId(7), name: 'Ada King', version: 2, now }];

const names = async (store: EmbeddedStore): Promise<(string | undefined)[]> => [
  (await store.users.findById(userId(7)))?.name,
  (await store.tickets.findById(ticketId(1)))?.customerName,
  (await store.tickets.findById(ticketId(2)))?.customerName,
];

describe('Embedded store: a write and its follow-ups are one commit', function () {
  this.timeout(60_000);
  let dir = '';
  tempDirEachTest((made) => (dir = made));

  it('a failed commit keeps neither the rename nor its tickets; after a restart one commit keeps both', async () => {
    let failing = false;
    const store = await startedStore(dir, {
      // If the follow-ups were a commit of their own, a failure of the first would leave them to commit.
      beforeCommit: () => {
        if (failing) throw new Error('EIO: injected');
      },
      log: () => undefined,
    });
    let before = 0;
    try {
      await store.users.insert(ada);
      for (const id of [1, 2]) await store.tickets.insert(aTicket({ id, customerId: 7, customerName: 'Ada Lovelace' }));
      before = (await store.events.bounds()).newest;
      failing = true;
      expect(
        await store.users.update(renamed, 1, admin, rename).then(
          () => null,
          (e: unknown) => e,
        ),
      ).to.be.instanceOf(CommitFailedError);
    } finally {
      await store.close();
    }
    const restarted = await startedStore(dir);
    try {
      expect(await names(restarted)).to.deep.equal(['Ada Lovelace', 'Ada Lovelace', 'Ada Lovelace']);
      expect((await restarted.events.bounds()).newest, 'no event of the refused write').to.equal(before);
      expect(await restarted.users.update(renamed, 1, admin, rename)).to.equal('ok');
      expect(await names(restarted)).to.deep.equal(['Ada King', 'Ada King', 'Ada King']);
    } finally {
      await restarted.close();
    }
    const reopened = await startedStore(dir);
    try {
      expect(await names(reopened)).to.deep.equal(['Ada King', 'Ada King', 'Ada King']);
      expect((await reopened.events.after(0, 100)).map((e) => [e.type, e.actor]).slice(-3)).to.deep.equal([
        ['user.updated', admin],
        ['ticket.updated', admin],
        ['ticket.updated', admin],
      ]);
    } finally {
      await reopened.close();
    }
  });
});
