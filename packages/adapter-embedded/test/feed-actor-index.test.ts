import { aGroup, T0, userId } from '@support/application/testing';
import type { EventActor } from '@support/domain';
import { expect } from 'chai';
import { join } from 'node:path';
import { open } from 'lmdb';
import { dataFiles, formatVersion, tableOptions } from '../src/index.js';
import { startedStore, tempDirEachTest } from './temp-store.js';

// GET /v1/events?actor_id= (contract §8.3) reads one user's events through the feed's
// per-actor index ([user id, seq]), written in the same commit as each event and forgotten
// with it (issue 32 item 9: the filtered read passed over everyone else's events). A store of
// format 2, written before the index, gets it built at open (format 3).

const minute = 60_000;
const by = (id: number): EventActor => ({ type: 'user', id: userId(id) });

describe("Embedded store: the change feed's per-actor index", function () {
  this.timeout(60_000);
  let dir = '';
  tempDirEachTest((made) => (dir = made));

  const indexKeys = async (): Promise<unknown[]> => {
    const env = open({ path: join(dir, dataFiles.store), maxDbs: 32 });
    try {
      return [...env.openDB({ name: 'eventsByActor', ...tableOptions }).getKeys({})];
    } finally {
      await env.close();
    }
  };

  it("holds [user, seq] for each user's event, none for the service's own, and forgets them with the events", async () => {
    const store = await startedStore(dir);
    try {
      for (let i = 1; i <= 6; i++)
        await store.groups.insert(
          aGroup({ id: i, name: `G${String(i)}`, createdAt: T0 + i * minute, updatedAt: T0 + i * minute }),
          i === 3 ? undefined : by(i % 2 === 0 ? 2 : 1),
        );
      expect((await store.events.after(0, 10, userId(2))).map((e) => e.seq)).to.deep.equal([2, 4, 6]);
      expect((await store.events.after(2, 1, userId(1))).map((e) => e.seq)).to.deep.equal([5]);
      await store.events.forget(T0 + 5 * minute);
      expect((await store.events.after(0, 10, userId(1))).map((e) => e.seq)).to.deep.equal([5]);
    } finally {
      await store.close();
    }
    expect(await indexKeys()).to.deep.equal([
      [1, 5],
      [2, 6],
    ]);
  });

  it('builds the index of a format 2 store at open, and the filtered read finds the older events', async () => {
    const store = await startedStore(dir);
    try {
      for (let i = 1; i <= 5; i++)
        await store.groups.insert(aGroup({ id: i, name: `G${String(i)}` }), by(i <= 2 ? 7 : 8));
    } finally {
      await store.close();
    }
    // As format 2 left it: the same events, no index.
    const env = open({ path: join(dir, dataFiles.store), maxDbs: 32 });
    await env.transaction(() => {
      const index = env.openDB({ name: 'eventsByActor', ...tableOptions });
      for (const key of [...index.getKeys({})]) void index.remove(key);
      void env.openDB({ name: 'meta', ...tableOptions }).put('format', 2);
    });
    await env.close();
    expect(await indexKeys()).to.deep.equal([]);
    const reopened = await startedStore(dir);
    try {
      expect((await reopened.events.after(0, 10, userId(7))).map((e) => e.seq)).to.deep.equal([1, 2]);
      expect((await reopened.events.after(0, 10, userId(8))).map((e) => e.seq)).to.deep.equal([3, 4, 5]);
      await reopened.groups.insert(aGroup({ id: 6, name: 'G6' }), by(7));
      expect((await reopened.events.after(2, 10, userId(7))).map((e) => e.seq)).to.deep.equal([6]);
    } finally {
      await reopened.close();
    }
    const after = open({ path: join(dir, dataFiles.store), maxDbs: 32 });
    try {
      expect(after.openDB({ name: 'meta', ...tableOptions }).get('format')).to.equal(formatVersion);
    } finally {
      await after.close();
    }
  });
});
