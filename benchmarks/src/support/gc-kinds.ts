// The names the benchmarks print for the kinds of garbage collection perf_hooks reports.
import { constants } from 'node:perf_hooks';

const names: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/** A 'gc' entry's kind by name (minor: a scavenge; major: a mark-compact); undefined for a kind not listed. */
export const gcKindName = (kind: number | undefined): string | undefined =>
  kind === undefined ? undefined : names[kind];
