export interface StoreHealth {
  /** Whether the store answers now. Never throws. */
  ping(): Promise<boolean>;
}

/**
 * Thrown by an adapter when its store cannot be reached or does not answer in time.
 * An infrastructure failure, not an expected result: the HTTP adapter answers 503.
 */
export class StoreUnavailableError extends Error {
  constructor(message = 'the data store is unavailable', options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
