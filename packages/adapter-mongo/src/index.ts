export { createMongoStore, MongoConfigurationError, type MongoStore } from './store.js';
export { defaultOperationTimeoutMS, defaultServerSelectionTimeoutMS, type MongoStoreOptions } from './options.js';
export { indexSpecs, type IndexSpec } from './indexes.js';
