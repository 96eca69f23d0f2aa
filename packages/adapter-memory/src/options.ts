import { defaultFeedBytes } from './event-log.js';

export type SearchPlanChoice = 'cost' | 'walk-index' | 'sort-matches';
export type QueueSetsChoice = 'by-density' | 'bitsets';

export interface MemoryStoreOptions {
  /** Values per chunk of every sorted list (tests make it tiny so that chunks split and merge). */
  readonly chunkLoad?: number;
  /** Approximate bytes the change feed may hold; beyond them it forgets its oldest events (default 256 MiB). */
  readonly feedBytes?: number;
  /**
   * How a ticket search finds its page: by estimated cost (the default), or always by walking
   * a sort index, or always by sorting the candidates (tests pin each plan).
   */
  readonly searchPlan?: SearchPlanChoice;
  /**
   * A run of tickets with equal first sort keys up to this length is sorted by the later
   * rules in memory; a longer one is walked through the next rule's index instead.
   */
  readonly runSortLimit?: number;
  /**
   * The ticket queue sets (by state, priority, customer, assignee, group, tag): hash sets or
   * bitsets by density (the default), or always bitsets, intersected as such (tests).
   */
  readonly queueSets?: QueueSetsChoice;
}

export type MemoryStoreSettings = Required<MemoryStoreOptions>;

export const memoryStoreSettings = (options: MemoryStoreOptions): MemoryStoreSettings => ({
  chunkLoad: options.chunkLoad ?? 512,
  feedBytes: options.feedBytes ?? defaultFeedBytes,
  searchPlan: options.searchPlan ?? 'cost',
  runSortLimit: options.runSortLimit ?? 1024,
  queueSets: options.queueSets ?? 'by-density',
});
