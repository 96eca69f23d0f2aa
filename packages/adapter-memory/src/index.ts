export { createMemoryStore } from './store.js';
export type { MemoryStoreOptions, SearchPlanChoice } from './options.js';
