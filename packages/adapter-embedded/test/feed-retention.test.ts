import { aGroup, T0 } from '@support/application/testing';
import { expect } from 'chai';
import { startedStore, tempDirEachTest } from './temp-store.js';

// The feed's retention (EVENTS_RETENTION_DAYS) forgets old events a bounded batch a commit, not
// all of them in one transaction (issue 32 item 9): a day past retention can hold millions.

const minute = 60_000;

describe('Embedded store: forgetting old events is bounded a commit', function () {
  this.timeout(60_000);
  let dir = '';
  tempDirEachTest((made) => (dir = made));

  it('forgets in commits of at most the batch, oldest first, and a restart reads what was kept', async () => {
    let commits = 0;
    const store = await startedStore(dir, {
      forgetBatch: 3,
      beforeCommit: () => {
        commits += 1;
      },
    });
    try {
      for (let i = 1; i <= 10; i++)
        await store.groups.insert(
          aGroup({ id: i, name: `G${String(i)}`, createdAt: T0 + i * minute, updatedAt: T0 + i * minute }),
        );
      commits = 0;
      await store.events.forget(T0 + 8 * minute);
      expect(commits, 'events 1-7 in batches of 3').to.equal(3);
      expect(await store.events.bounds()).to.deep.equal({ oldest: 8, newest: 10 });
      commits = 0;
      await store.events.forget(T0 + 100 * minute);
      expect(commits, 'events 8-10: one full batch, then nothing left').to.equal(1);
      expect(await store.events.bounds()).to.deep.equal({ oldest: null, newest: 10 });
      await store.events.forget(T0 + 100 * minute);
    } finally {
      await store.close();
    }
    const restarted = await startedStore(dir);
    try {
      expect(await restarted.events.bounds()).to.deep.equal({ oldest: null, newest: 10 });
      await restarted.groups.insert(aGroup({ id: 11, name: 'G11' }));
      expect((await restarted.events.after(0, 10)).map((e) => e.seq)).to.deep.equal([11]);
    } finally {
      await restarted.close();
    }
  });
});
