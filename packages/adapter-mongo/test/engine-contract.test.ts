import { portContractSuites } from '@support/application/testing';
import { engineStore } from './support/mingo-engine.js';

// The port contract suites, unchanged, on the Mongo adapter running over the independent
// engine (support/mingo-engine.ts): every filter, update, upsert and sort the repositories
// build is executed (mingo, MongoDB's sort order, unique indexes, a BSON round trip of every
// document) and its result compared with what the domain says, for every port.
// Multi-rule sorts and an id tie-breaker against the last rule still sort in memory (SORT
// stage) here: the engine answers them, and does not yet hold them to the indexes.
for (const describeContract of portContractSuites) describeContract('MongoDB adapter on the mingo engine', () => engineStore({ indexedSorts: 'ignore' }));
