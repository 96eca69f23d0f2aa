/**
 * Thrown by an adapter when its store cannot be reached or does not answer in time.
 * An infrastructure failure, not an expected result: the HTTP adapter answers 503.
 */
export class StoreUnavailableError extends Error {
    constructor(message = 'the data store is unavailable', options) {
        super(message, options);
        this.name = 'StoreUnavailableError';
    }
}
/**
 * Thrown by an adapter when the store accepted a write but could not confirm it durable in
 * time (on MongoDB: the primary applied it, a majority of the replica set did not
 * acknowledge it within the write concern's limit). The write may have been applied, and
 * may still be rolled back: a blind retry could apply it twice.
 */
export class StoreWriteNotConfirmedError extends Error {
    constructor(message = 'the data store could not confirm the write', options) {
        super(message, options);
        this.name = 'StoreWriteNotConfirmedError';
    }
}
/**
 * Thrown by an adapter when the store answered but stopped the operation at its time limit:
 * the store is up, the operation was too costly for the limit, so retrying it at once will
 * most likely meet the same limit.
 */
export class StoreTimeLimitError extends Error {
    constructor(message = 'the data store stopped the operation at its time limit', options) {
        super(message, options);
        this.name = 'StoreTimeLimitError';
    }
}
//# sourceMappingURL=store-health.js.map