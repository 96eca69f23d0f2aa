import { aFilter, aTicket, sortOf } from '@support/application/testing';
import { expect } from 'chai';
import { existsSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dataFiles } from '../src/index.js';
import { startedStore, tempDataDir } from './temp-store.js';

// The start reads every record through LMDB's map; those pages would stay resident (RSS) for
// the process's life. The store closes and reopens its environment once after the load, so a
// started store holds none of them, and serves and writes as before.

const smaps = '/proc/self/smaps';

/** Bytes of `file`'s mappings resident in this process (Linux's smaps). */
const residentOf = (file: string): number => {
  let inFile = false;
  let bytes = 0;
  for (const line of readFileSync(smaps, 'utf8').split('\n')) {
    // A mapping's header: "start-end perms offset dev inode [path]"; its fields follow on lines of "Name: value".
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inFile = line.endsWith(` ${file}`);
    else if (inFile && line.startsWith('Rss:')) bytes += Number(/(\d+) kB/.exec(line)?.[1] ?? 0) * 1024;
  }
  return bytes;
};

describe('Embedded store: the pages the start read are not kept mapped', function () {
  this.timeout(120_000);
  let dir = '';
  beforeEach(function () {
    if (!existsSync(smaps)) {
      console.warn(`      NOT RUN: no ${smaps} on this system (Linux only)`);
      this.skip();
    }
    dir = tempDataDir();
  });
  afterEach(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('a started store has none of the loaded records resident, and serves and writes them', async () => {
    const count = 2000;
    const subject = (id: number) => `${String(id)} ${'x'.repeat(4000)}`;
    const first = await startedStore(dir);
    for (let from = 1; from <= count; from += 250)
      await Promise.all(
        Array.from({ length: 250 }, (_, i) =>
          first.tickets.insert(aTicket({ id: from + i, subject: subject(from + i) })),
        ),
      );
    await first.close();
    const file = realpathSync(join(dir, dataFiles.store));
    expect(statSync(file).size).to.be.greaterThan(8 * 2 ** 20);

    const second = await startedStore(dir);
    const resident = residentOf(file);
    try {
      // The load read > 8 MiB of records through the map; what stays is a page or a few of the reopen's own reads.
      expect(resident, 'bytes of the store file resident after the start').to.be.lessThan(2 ** 20);
      const page = await second.tickets.search(aFilter(), sortOf('id'), 0, 5);
      expect(page.total).to.equal(count);
      expect(page.items.map((t) => t.subject)).to.deep.equal([1, 2, 3, 4, 5].map(subject));
      await second.tickets.insert(aTicket({ id: count + 1, subject: 'after the reopen' }));
    } finally {
      await second.close();
    }

    const third = await startedStore(dir);
    try {
      const { total, items } = await third.tickets.search(aFilter(), sortOf('-id'), 0, 1);
      expect(total).to.equal(count + 1);
      expect(items[0]?.subject).to.equal('after the reopen');
    } finally {
      await third.close();
    }
  });
});
