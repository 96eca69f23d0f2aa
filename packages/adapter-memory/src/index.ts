export { createMemoryEngine, createMemoryStore, type Durability, type MemoryEngine, type NoteChange } from './store.js';
export type { MemoryStoreOptions, SearchPlanChoice } from './options.js';
export { journalTables, type ChangeSink, type JournalTable, type RecordChange, type RecordKey } from './journal.js';
export type { ChangeRecorder, RecordingEventLog } from './event-log.js';
export { FeedWaiters } from './feed-waiters.js';
export { shelfTables, type ShelfReader, type ShelfTable } from './shelf.js';
