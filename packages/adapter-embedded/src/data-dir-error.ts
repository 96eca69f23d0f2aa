/** A data directory that cannot be used: the start stops with this one line. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirError';
  }
}
