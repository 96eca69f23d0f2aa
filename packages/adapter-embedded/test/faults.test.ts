import { aFilter, aMessage, aTicket, aUser, sortOf } from '@support/application/testing';
import type { TicketId } from '@support/domain';
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { CommitFailedError, DataDirError, dataFiles, tableOptions, type EmbeddedStore } from '../src/index.js';
import { heapPerRecord, serviceBytes, startShare } from '../src/heap.js';
import { startedStore, tempDirEachTest } from './temp-store.js';

// Faults are answered, never hidden: a failed commit refuses its writes (and the reads that
// waited on it), leaves memory equal to what the disk holds, makes the store not ready until
// a commit succeeds again; a data directory that cannot be used is refused at start, never
// served empty or half.

const ids = async (store: EmbeddedStore): Promise<number[]> =>
  (await store.tickets.search(aFilter(), sortOf('id'), 0, 1000)).items.map((t) => t.id);

const ada = aUser({ id: 7, name: 'Ada Lovelace', email: 'ada@example.com', role: 'customer' });

const outcome = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

const refusal = async (start: () => Promise<unknown>): Promise<Error> => {
  try {
    await start();
  } catch (e) {
    return e as Error;
  }
  throw new Error('the start was not refused');
};

describe('Embedded store: faults', function () {
  this.timeout(60_000);
  let dir = '';
  tempDirEachTest((made) => (dir = made));

  it('fail-stop: a failed commit refuses its batch whole (a new record shape in it too), then every call; a restart loads what the disk holds', async () => {
    let failing = false;
    const logged: string[] = [];
    const failures: Error[] = [];
    const store = await startedStore(dir, {
      // Refuses a call as it is handed to LMDB: none of its changes may reach the disk.
      beforeCommit: () => {
        if (failing) throw new Error('EIO: injected');
      },
      log: (level, message) => logged.push(`${level} ${message}`),
      onFailure: (cause) => failures.push(cause),
    });
    try {
      await store.tickets.insert(aTicket({ id: 1 }));
      failing = true;
      // The batch holds the first user ever written: a record shape the store has never stored.
      const refused = [
        store.tickets.insert(aTicket({ id: 2 })),
        store.tickets.insert(aTicket({ id: 3 })),
        store.users.insert(ada),
      ];
      // A read made while those commits are pending sees them, so it waits for them and fails with them.
      const read = store.tickets.findById(2 as never);
      for (const r of [...refused, read]) expect(await outcome(r)).to.be.instanceOf(CommitFailedError);
      failing = false;
      // Every later call is refused too: memory holds what the disk does not.
      expect(await outcome(store.tickets.findById(1 as never))).to.be.instanceOf(CommitFailedError);
      expect(await outcome(store.tickets.insert(aTicket({ id: 4 })))).to.be.instanceOf(CommitFailedError);
      expect(await outcome(store.events.bounds())).to.be.instanceOf(CommitFailedError);
      expect(await store.health.ping()).to.equal(false);
      expect(failures.map((e) => e.message)).to.deep.equal(['commit failed: EIO: injected']);
      expect(logged.filter((l) => l.startsWith('error embedded store: commit failed: EIO: injected'))).to.have.length(
        1,
      );
    } finally {
      await store.close();
    }
    const reopened = await startedStore(dir);
    try {
      expect(await ids(reopened)).to.deep.equal([1]);
      expect(await reopened.users.findById(ada.id)).to.equal(null);
      expect((await reopened.events.bounds()).newest).to.equal(1);
      // The shape the refused batch held is written again, then read back field by field.
      await reopened.users.insert(ada);
      await reopened.tickets.insert(aTicket({ id: 4 }));
    } finally {
      await reopened.close();
    }
    const again = await startedStore(dir);
    try {
      expect(await ids(again)).to.deep.equal([1, 4]);
      expect(await again.users.findById(ada.id)).to.deep.equal(ada);
    } finally {
      await again.close();
    }
  });

  it('nothing reaches the disk on top of a refused commit: the calls handed to LMDB after it refuse themselves', async () => {
    let failNext = false;
    const store = await startedStore(dir, {
      // Only the first call after the switch fails: the later ones would commit if nothing stopped them.
      beforeCommit: () => {
        if (!failNext) return;
        failNext = false;
        throw new Error('EIO: injected once');
      },
      log: () => undefined,
      onFailure: () => undefined,
    });
    try {
      await store.tickets.insert(aTicket({ id: 1 }));
      failNext = true;
      const refused = [store.tickets.insert(aTicket({ id: 2 })), store.tickets.insert(aTicket({ id: 3 }))];
      // A call of a later turn, handed to LMDB before the failure is known.
      await new Promise((resolve) => setImmediate(resolve));
      refused.push(store.tickets.insert(aTicket({ id: 4 })));
      for (const r of refused) expect(await outcome(r)).to.be.instanceOf(CommitFailedError);
    } finally {
      await store.close();
    }
    const reopened = await startedStore(dir);
    try {
      // Tickets 3 and 4 without 2 would leave the feed with a gap (events 3-4 without event 2).
      expect(await ids(reopened)).to.deep.equal([1]);
      expect((await reopened.events.bounds()).newest).to.equal(1);
    } finally {
      await reopened.close();
    }
  });

  it('a full disk for real (tmpfs): the failed write and every later call refused; a restart with room holds every acknowledged write', async function () {
    const mount = join(dir, 'small');
    mkdirSync(mount);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      console.log(
        '    Embedded store full-disk test did NOT run: cannot mount a small tmpfs here (needs root); the injected fault above still ran',
      );
      this.skip();
    }
    try {
      const store = await startedStore(join(mount, 'data'), { log: () => undefined });
      let written = 0;
      try {
        let failure: unknown = null;
        for (let id = 1; failure === null && id < 1000; id += 1) {
          await store.tickets.insert(aTicket({ id, summary: 'x'.repeat(8000) })).then(
            () => (written = id),
            (e: unknown) => (failure = e),
          );
        }
        expect(failure).to.be.instanceOf(CommitFailedError);
        expect((failure as Error).message).to.match(/could not commit: \S/);
        expect(written).to.be.greaterThan(0);
        // Fail-stop: nothing more is taken, even once there is room again.
        execFileSync('mount', ['-o', 'remount,size=16m', mount], { stdio: 'ignore' });
        expect(await outcome(store.tickets.insert(aTicket({ id: written + 1 })))).to.be.instanceOf(CommitFailedError);
        expect(await store.health.ping()).to.equal(false);
      } finally {
        await store.close();
      }
      const reopened = await startedStore(join(mount, 'data'));
      try {
        expect(await ids(reopened)).to.deep.equal(Array.from({ length: written }, (_, i) => i + 1));
      } finally {
        await reopened.close();
      }
    } finally {
      execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
    }
  });

  it('refuses a second store on the same directory', async () => {
    const store = await startedStore(dir);
    try {
      const e = await refusal(() => startedStore(dir));
      expect(e).to.be.instanceOf(DataDirError);
      expect(e.message).to.match(/is in use by this process/);
    } finally {
      await store.close();
    }
  });

  it('takes over a directory whose holder is gone (killed)', async () => {
    writeFileSync(join(dir, dataFiles.owner), JSON.stringify({ pid: 2 ** 22 + 12345 }));
    const store = await startedStore(dir);
    await store.close();
  });

  it('refuses a start whose data would not fit the heap, with one line naming NODE_OPTIONS', async () => {
    const store = await startedStore(dir);
    for (let id = 1; id <= 10; id += 1) {
      await store.tickets.insert(aTicket({ id }));
      // As the service numbers them: a sequence per ticket (one ids record each), then the messages.
      for (let k = 0; k < 3; k += 1) {
        const number = await store.ids.next(`message:${String(id)}`);
        await store.messages.insert(aMessage({ ticketId: id, number: number }));
      }
    }
    await store.close();
    // The estimate counts each table's records at its measured cost: tickets, messages, and the
    // message counters (which carry each ticket's thread).
    const needed = serviceBytes + 10 * heapPerRecord.tickets + 30 * heapPerRecord.messages + 10 * heapPerRecord.ids;
    const limit = Math.ceil(needed / startShare);
    const tooSmall = await refusal(() => startedStore(dir, { heapLimitBytes: limit - 1024 }));
    expect(tooSmall).to.be.instanceOf(DataDirError);
    expect(tooSmall.message).to.match(
      /holds 10 tickets and 30 messages, which need about 0\.1 GiB of JavaScript heap; this process may use 0\.1 GiB\. Start it with NODE_OPTIONS=--max-old-space-size=\d+ .*or move to STORE=mongo/,
    );
    expect(tooSmall.message).not.to.contain('\n');
    const fits = await startedStore(dir, { heapLimitBytes: limit });
    expect(await ids(fits)).to.have.length(10);
    expect((await fits.messages.list(10 as TicketId, true, 0, 10)).total).to.equal(3);
    await fits.close();
  });

  it('refuses a directory written by a newer version', async () => {
    const store = await startedStore(dir);
    await store.close();
    const env = open({ path: join(dir, dataFiles.store) });
    await env.openDB({ name: 'meta', ...tableOptions }).put('format', 99);
    await env.close();
    const e = await refusal(() => startedStore(dir));
    expect(e).to.be.instanceOf(DataDirError);
    expect(e.message).to.match(/written by a newer version .*format 99/);
  });

  it('accepts a store whose free tail is missing (LMDB reads all of it), keeping every record', async () => {
    const store = await startedStore(dir);
    for (let id = 1; id <= 50; id += 1) await store.tickets.insert(aTicket({ id }));
    await store.close();
    // The newest meta page names 64 pages more than the file holds, as when the last pages a
    // commit allocated were freed before they were ever written: LMDB never reads them.
    const path = join(dir, dataFiles.store);
    const file = readFileSync(path);
    const metas = [0, 4096]
      .map(
        (page) =>
          page + [...Array(17).keys()].map((i) => i * 4).find((at) => file.readUInt32LE(page + at) === 0xbeefc0de)!,
      )
      .sort((x, y) => Number(file.readBigUInt64LE(y + 128) - file.readBigUInt64LE(x + 128)));
    const newest = metas[0] ?? 0;
    file.writeBigUInt64LE(file.readBigUInt64LE(newest + 120) + 64n, newest + 120);
    writeFileSync(path, file);
    const reopened = await startedStore(dir);
    try {
      expect(await ids(reopened)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
    } finally {
      await reopened.close();
    }
  });

  it('refuses a torn copy LMDB cannot read, without advice that loses data, and a file that is not LMDB', async () => {
    const store = await startedStore(dir);
    for (let id = 1; id <= 200; id += 1) await store.tickets.insert(aTicket({ id, summary: 'y'.repeat(2000) }));
    await store.close();
    const path = join(dir, dataFiles.store);
    truncateSync(path, Math.floor(statSync(path).size / 2));
    const torn = await refusal(() => startedStore(dir));
    expect(torn).to.be.instanceOf(DataDirError);
    expect(torn.message).to.match(
      /ends at \d+ bytes but its pages reach \d+, and LMDB cannot read it \(.+\): a copy torn/,
    );
    expect(torn.message).to.match(/Nothing was changed\. Copy it again from where it came from/);
    writeFileSync(path, Buffer.alloc(64 * 1024, 7));
    const garbage = await refusal(() => startedStore(dir));
    expect(garbage).to.be.instanceOf(DataDirError);
    expect(garbage.message).to.match(/cannot be opened \(it is not an LMDB store\)/);
  });
});
