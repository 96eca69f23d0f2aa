import {
  describeEventLogContract,
  describeIdempotencyStoreContract,
  describeTicketRepositoryContract,
  describeWebhookRepositoryContract,
  portContractSuites,
} from '@support/application/testing';
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

// The suites of the stores that read from LMDB (the feed, kept answers, delivery logs) and the
// tickets', with the environment reopened at every check (every ms): a call made during a
// refresh waits for it and answers the same.
let resident = 0;
const refreshing = () =>
  startedStore(tempDataDir(), { mappedBytes: 1, mapCheckEveryMs: 1, residentFileBytes: () => (resident += 2) }, true);
for (const describeContract of [
  describeTicketRepositoryContract,
  describeEventLogContract,
  describeIdempotencyStoreContract,
  describeWebhookRepositoryContract,
])
  describeContract('Embedded store (reopened all the time)', refreshing);

// Every suite again with memory rebuilt from disk whenever no call is running (before the
// call answers): a record kept where no restorer brings it back, or a restorer that forgets a
// field, fails the next read. The rate-limit counters are per process by design, not stored.
for (const describeContract of portContractSuites)
  describeContract('Embedded store (reloaded from disk after every call)', () =>
    startedStore(tempDataDir(), { reloadAfterEveryCall: true }, true),
  );
