import { describeTicketRepositoryContract, portContractSuites } from '@support/application/testing';
import { startedStore, tempDataDir } from './temp-store.js';

// Every port contract suite, unchanged, on the embedded store: each test gets a fresh
// temporary data directory, so every write goes through LMDB and is committed before it
// answers.
for (const describeContract of portContractSuites)
  describeContract('Embedded store', () => startedStore(tempDataDir(), {}, true));

// The ticket suite with tiny chunks too, as the memory store runs it.
describeTicketRepositoryContract('Embedded store (index walks, chunks of 2)', () =>
  startedStore(tempDataDir(), { memory: { chunkLoad: 2, searchPlan: 'walk-index', runSortLimit: 0 } }, true),
);

// Every suite again with memory rebuilt from disk whenever no call is running (before the
// call answers): a record kept where no restorer brings it back, or a restorer that forgets a
// field, fails the next read. The rate-limit counters are per process by design, not stored.
for (const describeContract of portContractSuites)
  describeContract('Embedded store (reloaded from disk after every call)', () =>
    startedStore(tempDataDir(), { reloadAfterEveryCall: true }, true),
  );
