/** A record's key in its table: a number, a string, or a tuple of them (a message: ticket id and number). */
export type RecordKey = number | string | readonly (number | string)[];

/** One record a port call wrote (`value`) or removed (`value` undefined). Values are plain data, never changed in place. */
export interface RecordChange {
  readonly table: string;
  readonly key: RecordKey;
  readonly value: unknown;
}

/**
 * The tables whose records a durable store keeps and loads back into memory at start: with the
 * shelves (shelf.ts: kept, but read from the store, never loaded), every record the memory
 * store must not forget.
 */
export const journalTables = [
  'users',
  'groups',
  // Before tickets: a restored ticket's values go into columns made for their fields' types (value-columns.ts).
  'ticketFields',
  'tickets',
  'messages',
  'attachments',
  'tokens',
  'personalTokens',
  'idempotency',
  'webhooks',
  'leases',
  'deliverySpans',
  'ids',
] as const;
export type JournalTable = (typeof journalTables)[number];

/**
 * Where a durable store keeps the memory store's changes. The memory store calls `commit` at
 * the end of every port call that changed records, synchronously, with all of that call's
 * changes (so one call is one transaction), and answers the call only once the commit resolved.
 * Commits are made durable in the order they were asked for, and a refused one refuses every
 * later one that was already asked for (they were made on top of it).
 */
export interface ChangeSink {
  /** Makes the changes durable, all or none; rejects when they could not be. */
  commit(changes: readonly RecordChange[]): Promise<void>;
}

/** How a table's stored records come back: through its upgrade step, into its maps and indexes. */
export interface Restorer<Stored, T> {
  /** The table's upgrade step: a stored record, of any format since the first, as the record type today. */
  readonly upgrade: (stored: Stored) => T;
  readonly restore: (key: RecordKey, value: T) => void;
  readonly finish?: () => void;
}

/** The upgrade step of a table whose records have had the same fields since the stores' first format. */
export const storedAsIs = <T>(stored: T): T => stored;
