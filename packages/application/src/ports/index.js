export { StoreTimeLimitError, StoreUnavailableError, StoreWriteNotConfirmedError } from './store-health.js';
//# sourceMappingURL=index.js.map