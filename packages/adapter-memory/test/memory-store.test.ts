import { aTicket, describeTicketRepositoryContract, portContractSuites } from '@support/application/testing';
import { expect } from 'chai';
import { createMemoryStore } from '../src/index.js';

// Every port contract suite, unchanged, on the memory store; each test gets a fresh store.
for (const describeContract of portContractSuites) describeContract('Memory store', () => createMemoryStore());

// The ticket suite again with each search plan pinned and chunks tiny, so that the small
// examples split and merge chunks and reach every branch the cost model would save for
// large stores: index walks (runs sorted in memory, or every run walked through the next
// rule's index) and sorted candidates.
describeTicketRepositoryContract('Memory store (index walks, chunks of 2, every run walked)', () =>
  createMemoryStore({ chunkLoad: 2, searchPlan: 'walk-index', runSortLimit: 0 }),
);
describeTicketRepositoryContract('Memory store (index walks, chunks of 3, runs of 2 sorted)', () =>
  createMemoryStore({ chunkLoad: 3, searchPlan: 'walk-index', runSortLimit: 2 }),
);
describeTicketRepositoryContract('Memory store (sorted candidates, chunks of 4)', () =>
  createMemoryStore({ chunkLoad: 4, searchPlan: 'sort-matches' }),
);
// Every queue set a bitset, and every intersection made by bitsets (id-set.ts, candidates.ts):
// the path a store of a million tickets takes for two broad filters.
describeTicketRepositoryContract('Memory store (queue sets as bitsets, index walks)', () =>
  createMemoryStore({ queueSets: 'bitsets', searchPlan: 'walk-index', chunkLoad: 3 }),
);
describeTicketRepositoryContract('Memory store (queue sets as bitsets, sorted candidates)', () =>
  createMemoryStore({ queueSets: 'bitsets', searchPlan: 'sort-matches' }),
);

describe('Memory store: the change feed within its byte budget', () => {
  it('forgets its oldest events beyond the budget, keeping the rest a contiguous run up to the newest', async () => {
    const store = createMemoryStore({ feedBytes: 64 * 1024 });
    for (let id = 1; id <= 400; id += 1) await store.tickets.insert(aTicket({ id, summary: 'z'.repeat(500) }));
    const { oldest, newest } = await store.events.bounds();
    expect(newest).to.equal(400);
    expect(oldest).to.be.a('number').greaterThan(1);
    const kept = await store.events.after(0, 1000);
    expect(kept.map((e) => e.seq)).to.deep.equal(
      Array.from({ length: 400 - (oldest ?? 0) + 1 }, (_, i) => (oldest ?? 0) + i),
    );
    // About the budget: ~1.1 KB an event here, so fewer than 64 of them are kept.
    expect(kept.length).to.be.within(30, 64);
    expect(kept.at(-1)?.subject).to.deep.equal({ resource: 'ticket', id: 400 });
  });
});
