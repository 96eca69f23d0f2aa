export {
  createEmbeddedStore,
  type EmbeddedStore,
  type EmbeddedStoreOptions,
  type LoadReport,
} from './embedded-store.js';
export { DataDirError, dataFiles, formatVersion, tableOptions } from './data-dir.js';
export { CommitFailedError, isLmdbCommitRejection } from './lmdb-sink.js';
export { backupDataDir } from './backup.js';
export { copyFileDurably, syncDir, writeFileDurably } from './durable-files.js';
export { makePrivateDir, openDirWarning, privateFileMode } from './private-files.js';
