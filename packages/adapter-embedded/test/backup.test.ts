import { aFilter, aTicket, sortOf } from '@support/application/testing';
import { expect } from 'chai';
import { backupDataDir, DataDirError } from '../src/index.js';
import { startedStore, tempDirsOfSuite } from './temp-store.js';

// A backup taken while the store writes is one consistent moment: every ticket in the copy
// has its event in the copy's feed and the other way round, and a store started on the copy
// serves it.

describe('Embedded store: backup while running', function () {
  this.timeout(60_000);
  const dir = tempDirsOfSuite();

  it('copies a consistent moment while writes go on, and the copy starts as a store', async () => {
    const source = dir();
    const store = await startedStore(source);
    let written = 0;
    const state = { stop: false };
    const writer = (async () => {
      while (!state.stop && written < 900) {
        written += 1;
        await store.tickets.insert(aTicket({ id: written, subject: `Ticket ${String(written)}` }));
      }
    })();
    while (written < 50) await new Promise((r) => setTimeout(r, 5));
    const copy = `${dir()}/copy`;
    await backupDataDir(source, copy);
    state.stop = true;
    await writer;
    await store.close();

    const restored = await startedStore(copy);
    try {
      const { total, items } = await restored.tickets.search(aFilter(), sortOf('id'), 0, 1000);
      const { newest } = await restored.events.bounds();
      expect(total).to.be.greaterThan(0);
      expect(newest).to.equal(total);
      expect(items.map((t) => t.id)).to.deep.equal(Array.from({ length: total }, (_, i) => i + 1));
      const events = await restored.events.after(0, 1000);
      expect(events.map((e) => e.subject)).to.deep.equal(items.map((t) => ({ resource: 'ticket', id: t.id })));
    } finally {
      await restored.close();
    }
  });

  it('refuses a directory that is not empty, and a source without a store', async () => {
    const source = dir();
    const store = await startedStore(source);
    await store.close();
    const target = dir();
    await backupDataDir(source, `${target}/one`);
    let error: unknown = null;
    await backupDataDir(source, `${target}/one`).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(DataDirError);
    error = null;
    await backupDataDir(`${target}/nothing-here`, `${target}/two`).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(DataDirError);
  });
});
