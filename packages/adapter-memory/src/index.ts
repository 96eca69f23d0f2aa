export { createMemoryEngine, createMemoryStore, type Durability, type MemoryEngine, type NoteChange } from './store.js';
export type { MemoryStoreOptions, SearchPlanChoice } from './options.js';
export { journalTables, type ChangeSink, type JournalTable, type RecordChange, type RecordKey } from './journal.js';
export type { ChangeRecorder, RecordingEventLog } from './event-log.js';
export { FeedWaiters } from './feed-waiters.js';
export { shelfTables, type ShelfReader, type ShelfTable, type ShelvedTable } from './shelf.js';
// The ticket repository assembled by hand around a change recorder of the caller's choice: the
// feed's cost on the write path is timed with it against one that records nothing
// (benchmarks/src/events.ts), which createMemoryStore cannot offer.
export { MemoryEventLog } from './event-log.js';
export { Journal } from './journal.js';
export { memoryStoreSettings } from './options.js';
export { memoryTicketStores } from './tickets/ticket-repository.js';
