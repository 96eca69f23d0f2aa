import { describeTicketRepositoryContract, portContractSuites } from '@support/application/testing';
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
