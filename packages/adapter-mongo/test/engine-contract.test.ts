import { describeTicketRepositoryContract, portContractSuites } from '@support/application/testing';
import { engineStore } from './support/mingo-engine.js';

// The port contract suites, unchanged, on the Mongo adapter running over the independent
// engine (support/mingo-engine.ts): every filter, update, upsert and sort the repositories
// build is executed (mingo, MongoDB's sort order, unique indexes, a BSON round trip of every
// document) and its result compared with what the domain says, for every port; and every
// query the adapter sends is checked against the declared indexes by MongoDB's rules (a
// query that would sort in memory on the server fails the test).
for (const describeContract of portContractSuites)
  describeContract('MongoDB adapter on the mingo engine', () => engineStore());

// The ticket suite again with each search plan pinned, so that the small examples reach every
// branch the cost plan saves for large stores: tie runs walked through the next rule's index
// at every level, runs of two sorted in the adapter, every match's keys sorted in the adapter.
describeTicketRepositoryContract('MongoDB adapter on the mingo engine (index walks, every run walked)', () =>
  engineStore({ search: { plan: 'walk-index', runSortLimit: 0 } }),
);
describeTicketRepositoryContract('MongoDB adapter on the mingo engine (index walks, runs of 2 sorted)', () =>
  engineStore({ search: { plan: 'walk-index', runSortLimit: 2 } }),
);
describeTicketRepositoryContract('MongoDB adapter on the mingo engine (matches sorted in the adapter)', () =>
  engineStore({ search: { plan: 'sort-matches' } }),
);
