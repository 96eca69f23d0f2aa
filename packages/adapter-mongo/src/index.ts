export {
  createMongoStore,
  MongoConfigurationError,
  MongoStartupError,
  type MongoStore,
  type StartReport,
} from './store.js';
export { defaultOperationTimeoutMS, defaultServerSelectionTimeoutMS, type MongoStoreOptions } from './options.js';
export { indexSpecs, type IndexSpec } from './indexes.js';
