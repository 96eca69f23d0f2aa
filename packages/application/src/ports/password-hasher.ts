export interface PasswordHasher {
  /** An argon2id hash of the password, salted. Rejects with PasswordHasherBusyError when its queue is full. */
  hash(password: string): Promise<string>;
  /** Rejects with PasswordHasherBusyError when its queue is full. */
  verify(hash: string, password: string): Promise<boolean>;
}

/**
 * Thrown by a hasher whose bounded queue is full (contract §11): a login flood is refused at
 * once rather than queued without end. Not an expected result of a use case: the HTTP adapter
 * answers 503 with Retry-After, and nothing was changed.
 */
export class PasswordHasherBusyError extends Error {
  constructor(message = 'too many password checks are waiting', options?: ErrorOptions) {
    super(message, options);
    this.name = 'PasswordHasherBusyError';
  }
}
