import { aFilter, aTicket, sortOf } from '@support/application/testing';
import { StoreUnavailableError } from '@support/application';
import { expect } from 'chai';
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { dataFiles } from '../src/index.js';
import { MapRefresher, residentFileBytes } from '../src/map-refresh.js';
import { startedStore, tempDataDir } from './temp-store.js';

// LMDB reads its file through a memory map, and every page read (the load at start, the feed,
// kept answers) or copied on write stays counted in the process's memory until the map is
// closed. The store reopens its environment between two commits when those pages have grown
// past a budget: port calls wait meanwhile and answer as if nothing happened.

const MB = 1024 * 1024;
const summary = 'The printer smokes when it prints on both sides of the paper. '.repeat(64); // ~4 KB

const fill = async (dir: string, tickets: number): Promise<void> => {
  const store = await startedStore(dir);
  try {
    // 200 at a time: they share commits.
    for (let first = 1; first <= tickets; first += 200)
      await Promise.all(
        Array.from({ length: Math.min(200, tickets - first + 1) }, (_, i) =>
          store.tickets.insert(aTicket({ id: first + i, summary })),
        ),
      );
  } finally {
    await store.close();
  }
};

const count = async (store: Awaited<ReturnType<typeof startedStore>>): Promise<number> =>
  (await store.tickets.search(aFilter(), sortOf('id'), 0, 1)).total;

describe('Embedded store: mapped pages are let go past a budget', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = tempDataDir();
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const linux = residentFileBytes() !== null;
  if (!linux)
    console.warn('\n  !! map refresh: /proc/self/status has no RssFile here: the measured tests did NOT run\n');
  (linux ? it : it.skip)(
    'a start lets go of the pages its load read; a refresh lets go of those read since',
    async () => {
      await fill(dir, 6000); // ~24 MB of summaries in tickets and their events
      const held = async (mappedBytes: number): Promise<number> => {
        const before = residentFileBytes() ?? 0;
        const store = await startedStore(dir, { mappedBytes });
        try {
          return (residentFileBytes() ?? 0) - before;
        } finally {
          await store.close();
        }
      };
      const kept = await held(0);
      const letGo = await held(32 * MB);
      console.log(`      (resident file pages: kept ${String(kept >> 20)} MB, let go ${String(letGo >> 20)} MB)`);
      expect(kept, 'the load maps the file').to.be.greaterThan(16 * MB);
      expect(letGo, 'a start with a budget lets it go').to.be.lessThan(kept - 12 * MB);

      const store = await startedStore(dir);
      try {
        const before = residentFileBytes() ?? 0;
        // The feed is read from LMDB: reading it whole maps its pages.
        for (let after = 0; ;) {
          const page = await store.events.after(after, 500);
          if (page.length === 0) break;
          after = (page[page.length - 1] as { seq: number }).seq;
        }
        const read = (residentFileBytes() ?? 0) - before;
        await store.refreshMap();
        const after = (residentFileBytes() ?? 0) - before;
        console.log(`      (feed read: ${String(read >> 20)} MB mapped, ${String(after >> 20)} MB after the refresh)`);
        expect(read, 'reading the feed maps its pages').to.be.greaterThan(10 * MB);
        expect(after, 'the refresh lets them go').to.be.lessThan(read - 8 * MB);
        expect(await count(store)).to.equal(6000);
      } finally {
        await store.close();
      }
    },
  );

  it('answers the calls made during refreshes as if none happened, and loses none of its writes', async () => {
    let resident = 0;
    const logged: string[] = [];
    // The budget is crossed at every check: the store refreshes all the time.
    const store = await startedStore(dir, {
      mappedBytes: 1,
      mapCheckEveryMs: 1,
      residentFileBytes: () => (resident += 2),
      log: (level, message) => logged.push(`${level} ${message}`),
    });
    let written = 0;
    try {
      const writer = async (first: number): Promise<void> => {
        for (let id = first; id < first + 300; id += 1) {
          await store.tickets.insert(aTicket({ id, summary: `ticket ${String(id)}` }));
          expect((await store.tickets.findById(id as never))?.summary).to.equal(`ticket ${String(id)}`);
          written += 1;
        }
      };
      const reader = async (): Promise<void> => {
        let after = 0;
        while (written < 600) {
          const page = await store.events.after(after, 50);
          for (const e of page) {
            expect(e.seq).to.equal(after + 1, 'the feed has no gap');
            after = e.seq;
          }
          await new Promise((r) => setImmediate(r));
        }
      };
      await Promise.all([writer(1), writer(1001), reader()]);
      await store.refreshMap();
    } finally {
      await store.close();
    }
    const refreshes = logged.filter((l) => l === 'info embedded store: let go of its mapped pages').length;
    expect(refreshes, 'refreshes ran while calls were made').to.be.greaterThan(5);
    expect(logged.filter((l) => l.startsWith('error'))).to.deep.equal([]);
    const again = await startedStore(dir);
    try {
      expect(await count(again)).to.equal(600);
      expect((await again.events.bounds()).newest).to.equal(600);
    } finally {
      await again.close();
    }
  });

  it('refuses calls (503) while its file cannot be reopened, is not ready, and serves again once it can', async () => {
    const logged: string[] = [];
    const store = await startedStore(dir, { log: (level, message) => logged.push(`${level} ${message}`) });
    const file = join(dir, dataFiles.store);
    try {
      await store.tickets.insert(aTicket({ id: 1 }));
      renameSync(file, `${file}.away`);
      const refresh = store.refreshMap();
      const refused = await store.tickets.findById(1 as never).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).to.be.instanceOf(StoreUnavailableError);
      expect(await store.health.ping()).to.equal(false);
      expect(logged.some((l) => l.startsWith('error embedded store: cannot reopen the store:'))).to.equal(true);
      renameSync(`${file}.away`, file);
      await refresh;
      expect((await store.tickets.findById(1 as never))?.id).to.equal(1);
      expect(await store.health.ping()).to.equal(true);
      await store.tickets.insert(aTicket({ id: 2 }));
    } finally {
      await store.close();
    }
    const again = await startedStore(dir);
    try {
      expect(await count(again)).to.equal(2);
    } finally {
      await again.close();
    }
  });
});

describe('MapRefresher: when the budget is crossed', () => {
  const runs = async (readings: number[], budgetBytes: number): Promise<number> => {
    let refreshes = 0;
    let at = 0;
    const refresher = new MapRefresher(
      { budgetBytes, everyMs: 1, resident: () => readings[Math.min(at++, readings.length - 1)] ?? null },
      () => {
        refreshes += 1;
        return Promise.resolve();
      },
    );
    refresher.start();
    // Until every reading was taken, and the last one twice more (however slow the timer is here).
    while (at < readings.length + 2) await new Promise((r) => setTimeout(r, 2));
    await refresher.stop();
    return refreshes;
  };

  it('refreshes only once the pages have grown by more than the budget since the start', async () => {
    expect(await runs([100, 120, 150, 150], 50)).to.equal(0);
    // 100 at the start, then 151: past the budget; after the refresh the mark is what it reads then.
    expect(await runs([100, 151, 60, 60], 50)).to.equal(1);
  });

  it('counts the growth from the lowest reading since (pages the kernel took back)', async () => {
    // From 100 down to 40, then up to 95: 55 over the lowest, past a budget of 50.
    expect(await runs([100, 40, 95, 95], 50)).to.equal(1);
    expect(await runs([100, 40, 89, 89], 50)).to.equal(0);
  });

  it('never reads nor refreshes with a budget of 0, nor refreshes where the pages cannot be read', async () => {
    for (const [budgetBytes, reading] of [
      [0, 1e9],
      [1, null],
    ] as const) {
      let reads = 0;
      let refreshed = false;
      const refresher = new MapRefresher(
        {
          budgetBytes,
          everyMs: 1,
          resident: () => {
            reads += 1;
            return reading;
          },
        },
        () => {
          refreshed = true;
          return Promise.resolve();
        },
      );
      refresher.start();
      await new Promise((r) => setTimeout(r, 30));
      await refresher.stop();
      expect(refreshed).to.equal(false);
      // Budget 0: not even read. Unreadable: read once at the start, then left alone.
      expect(reads).to.equal(budgetBytes === 0 ? 0 : 1);
    }
  });
});
