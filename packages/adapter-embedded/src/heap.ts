import { getHeapStatistics } from 'node:v8';
import type { LmdbEnvironment } from './environment.js';

/**
 * Heap bytes the memory engine takes per record once loaded, measured (docs/embedded-store.md,
 * "Heap per record": 200k tickets with realistic texts alone, then with 1 message each, and
 * 100k with 5 each, heapUsed after a GC: 791 bytes a ticket; a ticket's first message 185 more,
 * each further one ~42), rounded up; longer subjects and summaries take more. A message's
 * own text is not in the heap (it is read from LMDB): what memory keeps of it is its number
 * and flags in its ticket's thread (~42 bytes), and the thread and the ticket's message
 * counter (one `ids` record, ~143 bytes). Every other record (users, tokens, webhooks...) is
 * counted at 1,000 bytes.
 */
export const heapPerRecord = { tickets: 850, messages: 50, ids: 150, other: 1000 } as const;
/** The heap the service takes with no data (its code, caches' bookkeeping, buffers), rounded up. */
export const serviceBytes = 96 * 2 ** 20;
/** The share of the heap limit the data may take at start: the rest is for requests and growth. */
export const startShare = 0.8;

/** A table's records, from LMDB's count (which includes the table's one record of msgpack structures). */
const count = (environment: LmdbEnvironment, table: string): number =>
  Math.max(0, (environment.table(table).getStats() as { entryCount: number }).entryCount - 1);

/** The heap the load of this store will need, from the tables' record counts (LMDB keeps them: no read). */
export const heapNeeded = (
  environment: LmdbEnvironment,
  tables: readonly string[],
): { readonly bytes: number; readonly tickets: number; readonly messages: number } => {
  let bytes = serviceBytes;
  const counts = { tickets: 0, messages: 0 };
  for (const table of tables) {
    const n = count(environment, table);
    if (table === 'tickets') counts.tickets = n;
    if (table === 'messages') counts.messages = n;
    bytes +=
      n * (table === 'tickets' || table === 'messages' || table === 'ids' ? heapPerRecord[table] : heapPerRecord.other);
  }
  return { bytes, ...counts };
};

const gib = (bytes: number): string => (bytes / 2 ** 30).toFixed(1);

/**
 * Refuses a start whose data would not fit the heap (the load would crash with "heap out of
 * memory", and a supervisor would restart it for ever): one line naming the setting to raise.
 * Answers null when it fits.
 */
export const heapRefusal = (
  dir: string,
  needed: ReturnType<typeof heapNeeded>,
  limit = getHeapStatistics().heap_size_limit,
): string | null => {
  if (needed.bytes <= limit * startShare) return null;
  const megabytes = Math.ceil(needed.bytes / startShare / 0.8 / 2 ** 20 / 1024) * 1024;
  return (
    `DATA_DIR ${dir} holds ${String(needed.tickets)} tickets and ${String(needed.messages)} messages, which need about ` +
    `${gib(needed.bytes)} GiB of JavaScript heap; this process may use ${gib(limit)} GiB. Start it with ` +
    `NODE_OPTIONS=--max-old-space-size=${String(megabytes)} (and that much memory), or move to STORE=mongo (docs/embedded-store.md, "Known limits")`
  );
};

/** From this share of the heap limit in use, the store warns (a log line once, and /readyz while it lasts). */
export const heapWarningShare = 0.8;
export const heapWarningText =
  'the JavaScript heap is at 80% of its limit or more; raise NODE_OPTIONS=--max-old-space-size, or move to STORE=mongo';

/** The heap in use against its limit, 0..1. */
export const heapShare = (): number => {
  const s = getHeapStatistics();
  return s.used_heap_size / s.heap_size_limit;
};
