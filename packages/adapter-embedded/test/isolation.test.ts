import { aFilter, aTicket, sortOf } from '@support/application/testing';
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { EmbeddedStore } from '../src/index.js';
import { settlesWithin } from './settles.js';
import { startedStore, tempDataDir } from './temp-store.js';

// Reads never wait for an unrelated write, and never see an unacknowledged one: a read of one
// ticket issued while another ticket's commit is in flight (made slow on purpose through the
// sink) answers before that commit completes; a read of the ticket being written answers only
// once its commit is durable, with the write; so do a search and a list that the write changes
// (searches and lists the write cannot change: view-isolation.test.ts). Seen failing on the old
// code: the read of ticket 1 waited for ticket 2's commit.

describe('Embedded store: reads during a slow commit', function () {
  this.timeout(30_000);
  let dir: string;
  let hold: Promise<void> | null = null;
  let release: () => void = () => undefined;
  let store: EmbeddedStore;
  beforeEach(async () => {
    dir = tempDataDir();
    store = await startedStore(dir, { slowCommit: () => hold ?? Promise.resolve() });
    await store.tickets.insert(aTicket({ id: 1, subject: 'Durable' }));
    hold = new Promise<void>((resolve) => {
      release = resolve;
    });
  });
  afterEach(async () => {
    release();
    hold = null;
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a read of another ticket answers before the slow commit completes', async () => {
    const write = store.tickets.insert(aTicket({ id: 2, subject: 'In flight' }));
    await new Promise((r) => setTimeout(r, 20));
    const read = store.tickets.findById(1 as never);
    expect(await settlesWithin(read, 500), 'the read of ticket 1 answered').to.equal(true);
    expect((await read)?.subject).to.equal('Durable');
    expect(await settlesWithin(write, 50), 'the write is still in flight').to.equal(false);
    release();
    await write;
  });

  it('a read of the ticket being written, a search and a list answer only with its durable commit, and show it', async () => {
    const write = store.tickets.insert(aTicket({ id: 2, subject: 'In flight' }));
    await new Promise((r) => setTimeout(r, 20));
    const own = store.tickets.findById(2 as never);
    const search = store.tickets.search(aFilter({ words: ['flight'] }), sortOf('id'), 0, 10);
    const list = store.tickets.search(aFilter(), sortOf('id'), 0, 10);
    expect(
      await settlesWithin(Promise.race([own, search, list]), 300),
      'nothing shows the write before it is durable',
    ).to.equal(false);
    release();
    await write;
    expect((await own)?.subject).to.equal('In flight');
    expect((await search).items.map((t) => t.id)).to.deep.equal([2]);
    expect((await list).total).to.equal(2);
  });
});
